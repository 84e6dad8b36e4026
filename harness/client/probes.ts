/**
 * The active probes of client grading: lockconf plays the user's browser at the
 * application (its connect URL), acts as the user at the mock's consent step
 * (control POST /consent) and has the mock play the adversary once:
 *   session          sign in, open the app's page twice, POST each actionUrl, refresh twice (refreshUrl):
 *                    the ordinary life of a client
 *   tampered-state   the redirect back carries a changed state: its code must never be exchanged
 *   denial           the user cancels: no code exchange may follow
 *   api-401          the mock answers the app's next API call 401: the user must be sent through authorization again
 *   refresh-refused  the mock refuses the app's next refresh (400): the token must not be presented again
 * The browser is a cookie jar over undici: it follows redirects only within the
 * app's origin and to the authorization endpoint, never elsewhere. Markers in the
 * mock's recording (POST /_control/grading/mark) delimit each probe for the judge.
 * Nothing a probe sees (codes, state, URLs with them) goes into its messages.
 */
import { request } from 'undici';
import { fingerprint } from '../../mock/grading/recording.js';
import type { ProbeReport } from './judge.js';
import { readBoundedText } from '../wire/bounded-body.js';

export interface ProbeTarget {
  authUrl: string;
  controlUrl: string;
  controlToken: string;
  /** The fixture user who signs in. */
  userId: string;
  /** The application's address that starts authorization. */
  connectUrl: string;
  /** Optional: an address of the application that makes it refresh its token now. */
  refreshUrl?: string | null;
  /** Optional: addresses the session probe POSTs to once signed in (e.g. register, then delete a webhook). */
  actionUrls?: readonly string[];
}

/** A browser session: cookies, and the last page reached. */
export class Browser {
  readonly #cookies = new Map<string, string>();
  constructor(private readonly target: ProbeTarget) {}

  /** One GET, no redirect followed. */
  async get(url: string): Promise<{ status: number; location: string | null }> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await request(url, { method: 'GET', headers: cookie ? { cookie } : {}, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(30_000) });
    await res.body.dump();
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const m = /^([^=;\s]+)=([^;]*)/.exec(line);
      if (m) this.#cookies.set(m[1]!, m[2]!);
    }
    const location = res.headers.location;
    return { status: res.statusCode, location: typeof location === 'string' ? new URL(location, url).toString() : null };
  }

  /** A POST with no body (an action of the app's page), no redirect followed; the status. */
  async post(url: string): Promise<number> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await request(url, { method: 'POST', headers: cookie ? { cookie } : {}, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(30_000) });
    await res.body.dump();
    return res.statusCode;
  }

  /** GET and follow redirects within the app and to the authorization endpoint; the last URL and status. */
  async browse(url: string, maxHops = 8): Promise<{ url: string; status: number; reachedAuthorization: boolean }> {
    const app = new URL(this.target.connectUrl).origin;
    const authz = `${this.target.authUrl}/authorization`;
    let current = url;
    for (let hop = 0; hop < maxHops; hop++) {
      const answer = await this.get(current);
      if (current.startsWith(authz)) return { url: current, status: answer.status, reachedAuthorization: true };
      if (answer.status < 300 || answer.status >= 400 || !answer.location) return { url: current, status: answer.status, reachedAuthorization: false };
      const next = answer.location;
      if (new URL(next).origin !== app && !next.startsWith(authz)) return { url: current, status: answer.status, reachedAuthorization: false };
      current = next;
    }
    return { url: current, status: 0, reachedAuthorization: false };
  }
}

class ProbeFailure extends Error {}

async function control(target: ProbeTarget, path: string, body: unknown): Promise<unknown> {
  const res = await request(`${target.controlUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-control-token': target.controlToken },
    body: JSON.stringify(body),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await readBoundedText(res.body, `control ${path}`, { headers: res.headers, code: 'ERR_CONTROL' });
  if (res.statusCode >= 300) throw new ProbeFailure(`control ${path} answered ${res.statusCode}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Connect → authorization (as the browser) → the user's decision; the Location back to the app. */
async function authorize(target: ProbeTarget, browser: Browser, decision: 'approve' | 'deny'): Promise<string> {
  const start = await browser.get(target.connectUrl);
  const authz = `${target.authUrl}/authorization`;
  if (!start.location?.startsWith(authz)) {
    throw new ProbeFailure(`the connect URL answered ${start.status} without a redirect to ${authz}`);
  }
  await browser.get(start.location); // the mock records the authorization request, as from the user's browser
  const answer = (await control(target, '/consent', { authorizationUrl: start.location, userId: target.userId, decision })) as { location?: unknown };
  if (typeof answer?.location !== 'string') throw new ProbeFailure('the mock gave no redirect for the authorization request');
  return answer.location;
}

/** A full sign-in; the app's page the browser lands on. */
export async function signIn(target: ProbeTarget, browser: Browser): Promise<string> {
  const back = await authorize(target, browser, 'approve');
  const landed = await browser.browse(back);
  if (landed.status !== 200) throw new ProbeFailure(`after the redirect back the application answered ${landed.status}`);
  return landed.url;
}

async function marked<T>(target: ProbeTarget, probe: string, fn: () => Promise<T>): Promise<T> {
  await control(target, '/grading/mark', { label: `${probe}:start` });
  try {
    return await fn();
  } finally {
    await control(target, '/grading/mark', { label: `${probe}:end` });
  }
}

function failed(err: unknown): { ran: false; why: string } {
  return { ran: false, why: err instanceof ProbeFailure ? err.message : `the probe could not run: ${err instanceof Error ? err.name : 'error'}` };
}

/** Runs every probe against the application; what each did, for the judge. */
export async function runProbes(target: ProbeTarget): Promise<ProbeReport> {
  const report: ProbeReport = {};
  const noRefresh = 'the profile names no refreshUrl (an address of the application that makes it refresh now)';

  try {
    const browser = new Browser(target);
    await marked(target, 'session', async () => {
      const home = await signIn(target, browser);
      await browser.browse(home);
      for (const action of target.actionUrls ?? []) await browser.post(action);
      if (target.refreshUrl) {
        await browser.browse(target.refreshUrl);
        await browser.browse(target.refreshUrl);
        await browser.browse(home);
      }
    });
  } catch {
    // The passive rules judge whatever the session left in the recording.
  }

  try {
    const browser = new Browser(target);
    const back = await authorize(target, browser, 'approve');
    const url = new URL(back);
    const code = url.searchParams.get('code');
    if (!code) throw new ProbeFailure('the approval redirect carried no code');
    url.searchParams.set('state', `${url.searchParams.get('state') ?? ''}tampered`);
    await marked(target, 'tampered-state', () => browser.browse(url.toString()));
    report.tamperedState = { ran: true, codeFp: fingerprint(code) };
  } catch (err) {
    report.tamperedState = failed(err);
  }

  try {
    const browser = new Browser(target);
    await marked(target, 'denial', async () => {
      const back = await authorize(target, browser, 'deny');
      await browser.browse(back);
    });
    report.denial = { ran: true };
  } catch (err) {
    report.denial = failed(err);
  }

  try {
    const browser = new Browser(target);
    const home = await signIn(target, browser);
    await marked(target, 'api-401', async () => {
      await control(target, '/grading/probe', { kind: 'api-401' });
      await browser.browse(home);
    });
    report.api401 = { ran: true };
  } catch (err) {
    report.api401 = failed(err);
  }

  if (!target.refreshUrl) report.refreshRefused = { ran: false, why: noRefresh };
  else {
    try {
      const browser = new Browser(target);
      await signIn(target, browser);
      await marked(target, 'refresh-refused', async () => {
        await control(target, '/grading/probe', { kind: 'refresh-refused' });
        await browser.browse(target.refreshUrl!);
        await browser.browse(target.refreshUrl!);
      });
      report.refreshRefused = { ran: true };
    } catch (err) {
      report.refreshRefused = failed(err);
    }
  }
  return report;
}
