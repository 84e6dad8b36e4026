/**
 * The example application (examples/app/) against a grading mock, on loopback
 * ports from the OS: start both, run lockconf's probes (with the example's
 * watch/unwatch actions), judge the recording.
 */
import { writeFile } from 'node:fs/promises';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { startExampleApp, type ExampleApp } from '../../../examples/app/server.js';
import { judgeClient, type ClientJudgement, type ProbeReport } from '../../../harness/client/judge.js';
import { runProbes, type ProbeSelection } from '../../../harness/client/probes.js';
import { NO_PROBES } from '../../../harness/client/probe-selection.js';

export interface GradedExample {
  mock: RunningMock;
  app: ExampleApp;
  /** The profile a client run reads: the mock's, with the application's addresses. */
  profile: Record<string, unknown>;
  /** Stops the application and starts it again (with `faults`, on a new port) beside the same mock; the profile follows it. */
  restartApp(faults: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * A grading mock and the example application (its pages variant with `pages`) configured
 * with the mock's credentials; the application's callback is its redirect_uri, which the
 * caller registers with the mock.
 */
export async function startAppBesideMock(faults: string[], pages = false, variants: string[] = []): Promise<{ mock: RunningMock; app: ExampleApp; redirectUri: string; close(): Promise<void> }> {
  const mock = await createMock({ grade: true });
  const config = configOf(mock, '');
  const app = await startExampleApp({ config, faults, variants, ...(pages ? { pages } : {}) });
  config.redirectUri = `${app.url}/callback`;
  const close = async () => {
    await app.close();
    await mock.close();
  };
  return { mock, app, redirectUri: config.redirectUri, close };
}

/** The example application's configuration from the mock's profile. */
function configOf(mock: RunningMock, redirectUri: string) {
  const p = mock.profile;
  return { authUrl: p.authUrl, baseUrl: p.baseUrl, clientId: p.clientId, clientSecret: p.clientSecret, apiKey: p.apiKey, redirectUri };
}

export async function startGradedExample(faults: string[] = [], variants: string[] = []): Promise<GradedExample> {
  const { mock, app } = await startAppBesideMock(faults, false, variants);
  const p = mock.profile;
  const lockId = encodeURIComponent(p.fixtures!.locks[0]!.lockId);
  const example: GradedExample = {
    mock,
    app,
    profile: {},
    async restartApp(next) {
      await example.app.close();
      const config = configOf(mock, '');
      example.app = await startExampleApp({ config, faults: next, variants });
      config.redirectUri = follow(example.app);
    },
    async close() {
      await example.app.close();
      await mock.close();
    },
  };
  /** The mock registers the application's callback; the profile names its addresses. */
  function follow(running: ExampleApp): string {
    const redirectUri = `${running.url}/callback`;
    mock.ctx.credentials.redirectUri = redirectUri;
    example.profile = {
      ...p,
      redirectUri,
      connectUrl: `${running.url}/connect`,
      refreshUrl: `${running.url}/refresh`,
      actionUrls: [
        `${running.url}/watch?lockId=${lockId}`, `${running.url}/watch-user`, `${running.url}/status?lockId=${lockId}`,
        `${running.url}/unwatch?lockId=${lockId}`, `${running.url}/unwatch-user`,
      ],
    };
    return redirectUri;
  }
  follow(app);
  return example;
}

export async function writeProfile(example: GradedExample, file: string): Promise<void> {
  await writeFile(file, JSON.stringify(example.profile), { mode: 0o600 });
}

/** Probes, then the judgement of the recording. */
export async function gradeExample(faults: string[] = [], select: ProbeSelection = {}, variants: string[] = []): Promise<{ judgements: ClientJudgement[]; probes: ProbeReport }> {
  const example = await startGradedExample(faults, variants);
  try {
    const p = example.mock.profile;
    const probes = await runProbes({
      authUrl: p.authUrl,
      controlUrl: p.controlUrl!,
      controlToken: p.controlToken!,
      userId: p.fixtures!.users[0]!.userId,
      connectUrl: example.profile.connectUrl as string,
      refreshUrl: example.profile.refreshUrl as string,
      actionUrls: example.profile.actionUrls as string[],
      credentials: { clientSecret: p.clientSecret, apiKey: p.apiKey },
    }, select);
    const recording = example.mock.ctx.grading!.snapshot(p.clientId);
    return { judgements: judgeClient(recording.events, p.clientId, probes), probes };
  } finally {
    await example.close();
  }
}

/** The session alone (its actions and refresh chain): every other family off, those added later too. */
const ONLY_SESSION: ProbeSelection = { ...NO_PROBES, session: true };

/** The probes a fault of `requirement` (on `dim=value`) needs to show: the session, or the one family that exercises it. */
export function probesFor(requirement: string, dim?: string, value?: string): ProbeSelection {
  switch (requirement) {
    case 'CLIENT-STATE-CHECKED':
      if (dim === 'arrives-in') return { ...ONLY_SESSION, session: false, state: { arrivals: [value!], tampers: ['forged'], flowEnds: ['approval'] } };
      return { ...ONLY_SESSION, session: false, state: dim === 'flow-end' ? { flowEnds: [value!], arrivals: ['flow-browser'] } : dim ? { tampers: [value!] } : { tampers: ['suffix'], flowEnds: ['approval'] } };
    case 'CLIENT-CANCELLATION-STATE-CHECKED':
      return { ...ONLY_SESSION, session: false, cancellation: dim ? [value!] : ['forged'] };
    case 'CLIENT-ADOPT-NEW-ACCESS-TOKEN':
      if (dim === 'answer-status' && value !== '200') return { ...ONLY_SESSION, session: false, answers: [value!] };
      return dim === 'answer-body' && value === 'no-body' ? { ...ONLY_SESSION, session: false, answers: ['drawn-no-body'] } : ONLY_SESSION;
    case 'CLIENT-STATE-SESSION-BOUND':
      return { ...ONLY_SESSION, session: false, state: { tampers: [value ?? 'other-session'], flowEnds: ['approval'] } };
    case 'CLIENT-STATE-ONE-USE':
      return { ...ONLY_SESSION, session: false, state: { tampers: ['replayed'], flowEnds: dim ? [value!] : ['approval'] } };
    case 'CLIENT-REAUTHORIZE-ON-401':
      if (dim === 'flow-point') return { ...ONLY_SESSION, session: false, api401Points: [value!] };
      return dim ? { ...ONLY_SESSION, session: false, api401Family: [value!] } : { ...ONLY_SESSION, session: false, api401: true };
    case 'CLIENT-AUTHZ-REDIRECT-URI':
      return dim === 'reached-as' && value === 'other-name' ? { ...ONLY_SESSION, session: false, reachedAs: true } : ONLY_SESSION;
    case 'CLIENT-CODE-FROM-REDIRECT':
      return { ...ONLY_SESSION, denial: true };
    case 'CLIENT-CODE-ONCE':
      return dim === 'callback-visit' && value === 'reloaded' ? { ...ONLY_SESSION, session: false, reload: true } : ONLY_SESSION;
    case 'CLIENT-REFRESH-IN-FLIGHT':
      return { ...ONLY_SESSION, session: false, refreshInFlight: true };
    case 'CLIENT-REFRESH-NO-RETRY':
      return { ...ONLY_SESSION, session: false, refreshRefused: true };
    case 'CLIENT-REFRESH-SINGLE-USE':
    case 'CLIENT-REFRESH-STORE-NEW':
      return { ...ONLY_SESSION, failedCheck: true }; // the refresh chain, and the refresh after a failed check
    case 'CLIENT-SECRET-ONLY-IN-FORM':
      return { ...ONLY_SESSION, tokenErrors: true }; // the secret kept from the browser on the token endpoint's error answers too
    default:
      return ONLY_SESSION;
  }
}
