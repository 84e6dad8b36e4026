/**
 * The example application's pages variant (examples/app/pages.ts) against a
 * grading mock, graded through a driver: Chromium (one browser, shared by a test
 * file) or the plain HTTP driver. The profile names the connect page and the
 * buttons the way an application team would (docs/target-profile.md).
 */
import type { Browser } from 'playwright-core';
import { request } from 'undici';
import type { RunningMock } from '../../../mock/server.js';
import type { ExampleApp } from '../../../examples/app/server.js';
import { startAppBesideMock } from './example.js';
import { judgeClient, type ClientJudgement, type ProbeReport } from '../../../harness/client/judge.js';
import { runProbes, type ProbeSelection } from '../../../harness/client/probes.js';
import { parseDriverFields } from '../../../harness/client/drivers/browser-steps.js';
import { chromiumDrivers } from '../../../harness/client/drivers/chromium.js';
import { httpDrivers } from '../../../harness/client/drivers/http.js';
import { withUndriven } from '../../../harness/client/driver-choice.js';

/** The profile's client-mode fields for the pages variant at `appUrl`. */
export function pagesProfileFields(appUrl: string): Record<string, unknown> {
  return {
    connectUrl: `${appUrl}/`,
    driver: 'chromium',
    browser: {
      connect: { click: 'Connect your locks' },
      refresh: { click: 'button#refresh' },
      actions: [
        { click: 'Register webhook' }, { click: 'Watch my account' }, { click: 'Check the lock\'s status' },
        { click: { label: 'Delete webhook' } }, { click: 'Stop watching my account' },
      ],
    },
  };
}

export interface GradedPages {
  judgements: ClientJudgement[];
  probes: ProbeReport;
  /** What the driver could not drive (drivers/driver.ts DriverFactory.undriven). */
  undriven: string | null;
}

export interface PagesExample {
  mock: RunningMock;
  app: ExampleApp;
  /** The profile a client run reads: the mock's, with the pages app's client-mode fields. */
  profile: Record<string, unknown>;
  close(): Promise<void>;
}

/** A grading mock and the pages app, the app started first and its callback registered through control afterwards. */
export async function startPagesExample(faults: string[] = []): Promise<PagesExample> {
  const { mock, app, redirectUri, close } = await startAppBesideMock(faults, true);
  const p = mock.profile;
  const registered = await request(`${p.controlUrl}/redirect-uri`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-control-token': p.controlToken! },
    body: JSON.stringify({ redirectUri }),
  });
  await registered.body.dump();
  if (registered.statusCode !== 200) throw new Error(`PUT /_control/redirect-uri answered ${registered.statusCode}`);
  return {
    mock,
    app,
    profile: { ...p, redirectUri, ...pagesProfileFields(app.url) },
    close,
  };
}

/** Starts mock and pages app, probes through the driver (Chromium when `browser` is given), judges. */
export async function gradePages(opts: { browser?: Browser; faults?: string[]; select?: ProbeSelection; progress?: (line: string) => void } = {}): Promise<GradedPages> {
  const { mock, app, close } = await startPagesExample(opts.faults ?? []);
  const p = mock.profile;
  try {
    const fields = pagesProfileFields(app.url);
    const { browser } = parseDriverFields(fields, 'test profile');
    const application = { authUrl: p.authUrl, connectUrl: fields.connectUrl as string, browser };
    const drivers = opts.browser ? await chromiumDrivers(application, { browser: opts.browser }) : httpDrivers(application);
    let probes: ProbeReport;
    try {
      probes = await runProbes({ ...application, controlUrl: p.controlUrl!, controlToken: p.controlToken!, userId: p.fixtures!.users[0]!.userId, drivers, progress: opts.progress ?? null }, opts.select);
    } finally {
      await drivers.close();
    }
    const recording = mock.ctx.grading!.snapshot(p.clientId);
    return { judgements: withUndriven(judgeClient(recording.events, p.clientId, probes), drivers.undriven), probes, undriven: drivers.undriven };
  } finally {
    await close();
  }
}
