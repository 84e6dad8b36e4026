/**
 * Talking to a grading mock from the client run: the profile fields client
 * grading adds (connectUrl, refreshUrl), the recording (GET /_control/grading)
 * and the fixture user the probes sign in as.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { installDispatcher } from '../wire/dispatcher.js';
import { LockconfError } from '../run/errors.js';
import { ANSWER_BODY_LIMIT, readBoundedText } from '../wire/bounded-body.js';
import { describeNetworkError } from '../wire/network-words.js';

import type { GradingRecording } from '../../mock/grading/recording.js';
import type { TargetProfile } from '../contracts.js';
import { lockconfCommand } from '../commands/command-style.js';

// The harness's pool: an idle connection dropped before the application or the mock closes it (wire/dispatcher.ts).
installDispatcher();

/** A grading recording holds every request of a client's session: larger than one answer may be. */
const GRADING_BODY_LIMIT = 8 * ANSWER_BODY_LIMIT;

export interface ApplicationUrls {
  connectUrl: string | null;
  refreshUrl: string | null;
  /** Addresses the session probe POSTs to once signed in (e.g. register, then delete a webhook). */
  actionUrls: string[];
}

/**
 * The application's addresses: from the profile file, or LOCKCONF_CONNECT_URL,
 * LOCKCONF_REFRESH_URL and LOCKCONF_ACTION_URLS (space- or comma-separated).
 */
export async function applicationUrls(file: string | null, env: NodeJS.ProcessEnv): Promise<ApplicationUrls> {
  let raw: Record<string, unknown> = {};
  if (file) {
    try {
      raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    } catch {
      raw = {};
    }
  }
  const pick = (field: string, variable: string): string | null => {
    const value = env[variable]?.trim() || (typeof raw[field] === 'string' ? (raw[field] as string) : '');
    if (!value) return null;
    try {
      return new URL(value).toString();
    } catch {
      throw new LockconfError('ERR_PROFILE_INVALID', `${field} is not a URL (${variable} or the profile's ${field})`);
    }
  };
  const listed = env.LOCKCONF_ACTION_URLS?.trim()
    ? env.LOCKCONF_ACTION_URLS.split(/[\s,]+/).filter(Boolean)
    : Array.isArray(raw.actionUrls) ? raw.actionUrls.filter((u): u is string => typeof u === 'string') : [];
  const actionUrls = listed.map((u) => {
    try {
      return new URL(u).toString();
    } catch {
      throw new LockconfError('ERR_PROFILE_INVALID', 'actionUrls holds an entry that is not a URL (LOCKCONF_ACTION_URLS or the profile\'s actionUrls)');
    }
  });
  return { connectUrl: pick('connectUrl', 'LOCKCONF_CONNECT_URL'), refreshUrl: pick('refreshUrl', 'LOCKCONF_REFRESH_URL'), actionUrls };
}

/** The control address and token a client run needs (the grading mock's). */
export function controlOf(profile: TargetProfile): { controlUrl: string; controlToken: string } {
  if (!profile.controlUrl || !profile.controlToken) {
    throw new LockconfError('ERR_PROFILE_INVALID', `client grading reads the grading mock's recording through its control interface: the profile needs controlUrl and controlToken (${lockconfCommand('mock', '--grade')} writes both to .lockconf/mock-target.json)`);
  }
  return { controlUrl: profile.controlUrl, controlToken: profile.controlToken };
}

/**
 * GET {controlUrl}/grading?clientId=…: the recording of one client; with `gradingId`, of that
 * grading only (what the application did during this run's grading, never before it).
 */
export async function fetchRecording(profile: TargetProfile, gradingId?: number): Promise<GradingRecording> {
  const { controlUrl, controlToken } = controlOf(profile);
  const only = gradingId === undefined ? '' : `&grading=${gradingId}`;
  let res;
  try {
    res = await request(`${controlUrl}/grading?clientId=${encodeURIComponent(profile.clientId)}${only}`, {
      headers: { 'x-control-token': controlToken, accept: 'application/json' },
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    throw new LockconfError('ERR_TARGET_UNREACHABLE', `the grading mock at ${controlUrl} cannot be reached (${describeNetworkError(err, { timeoutMs: 15_000 })}); start it with ${lockconfCommand('mock', '--grade')}`);
  }
  const text = await readBoundedText(res.body, `GET ${controlUrl}/grading`, { headers: res.headers, code: 'ERR_CONTROL', limit: GRADING_BODY_LIMIT });
  if (res.statusCode === 404) {
    throw new LockconfError('ERR_CONTROL', `the mock does not grade its clients: start it with ${lockconfCommand('mock', '--grade')}`);
  }
  if (res.statusCode !== 200) throw new LockconfError('ERR_CONTROL', `GET ${controlUrl}/grading answered ${res.statusCode}`);
  const recording = JSON.parse(text) as GradingRecording;
  if (recording.grading !== true || !Array.isArray(recording.events)) throw new LockconfError('ERR_CONTROL', 'GET /grading did not answer a grading recording');
  if (typeof recording.gradingId !== 'number') {
    throw new LockconfError('ERR_CONTROL', `the grading mock at ${controlUrl} does not keep its gradings apart (a mock of an older lockconf): restart it with ${lockconfCommand('mock', '--grade')}, so that no evidence older than this grading is judged`);
  }
  return recording;
}

/**
 * POST {controlUrl}/grading/start {"closes": gradingId}: ends this run's grading (the next
 * run judges only what happens after it). Refused when another grading ended it first (a
 * second client run on the same mock): the evidence is then not this run's alone.
 */
export async function endGrading(profile: TargetProfile, gradingId: number): Promise<void> {
  const { controlUrl, controlToken } = controlOf(profile);
  let res;
  try {
    res = await request(`${controlUrl}/grading/start`, {
      method: 'POST',
      headers: { 'x-control-token': controlToken, 'content-type': 'application/json' },
      body: JSON.stringify({ closes: gradingId }),
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw new LockconfError('ERR_TARGET_UNREACHABLE', `the grading mock at ${controlUrl} cannot be reached (${describeNetworkError(err, { timeoutMs: 15_000 })})`);
  }
  await res.body.dump();
  if (res.statusCode === 409) {
    throw new LockconfError('ERR_CONTROL', `another grading started on the mock at ${controlUrl} during this run (a second conformance --client run, or POST /_control/grading/start): what was recorded is not this run's alone; grade again, one run at a time`);
  }
  if (res.statusCode !== 200) throw new LockconfError('ERR_CONTROL', `POST ${controlUrl}/grading/start answered ${res.statusCode}`);
}

/** The user the probes sign in as: the profile's first fixture user, or GET /fixtures. */
export async function probeUser(profile: TargetProfile): Promise<string> {
  const first = profile.fixtures?.users[0]?.userId;
  if (first) return first;
  const { controlUrl, controlToken } = controlOf(profile);
  const res = await request(`${controlUrl}/fixtures`, {
    headers: { 'x-control-token': controlToken },
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await readBoundedText(res.body, `GET ${controlUrl}/fixtures`, { headers: res.headers, code: 'ERR_CONTROL' });
  let body: { users?: Array<{ userId?: string }> } | null;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new LockconfError('ERR_CONTROL', `GET ${controlUrl}/fixtures answered ${res.statusCode} without JSON`);
  }
  const userId = body?.users?.[0]?.userId;
  if (!userId) throw new LockconfError('ERR_CONTROL', 'GET /fixtures named no user for the probes to sign in as');
  return userId;
}
