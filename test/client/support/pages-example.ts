/**
 * The example application's pages variant (examples/app/pages.ts) against a
 * grading mock, graded through a driver: Chromium (one browser, shared by a test
 * file) or the plain HTTP driver. The profile names the connect page and the
 * buttons the way an application team would (docs/target-profile.md).
 */
import type { Browser } from 'playwright-core';
import { createMock } from '../../../mock/server.js';
import { startExampleApp } from '../../../examples/app/server.js';
import type { ClientFault } from '../../../examples/app/client-faults.js';
import { judgeClient, type ClientJudgement, type ProbeReport } from '../../../harness/client/judge.js';
import { runProbes } from '../../../harness/client/probes.js';
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
      actions: [{ click: 'Register webhook' }, { click: { label: 'Delete webhook' } }],
    },
  };
}

export interface GradedPages {
  judgements: ClientJudgement[];
  probes: ProbeReport;
  /** What the driver could not drive (drivers/driver.ts DriverFactory.undriven). */
  undriven: string | null;
}

/** Starts mock and pages app, probes through the driver (Chromium when `browser` is given), judges. */
export async function gradePages(opts: { browser?: Browser; faults?: ClientFault[] } = {}): Promise<GradedPages> {
  const mock = await createMock({ grade: true });
  const p = mock.profile;
  const config = { authUrl: p.authUrl, baseUrl: p.baseUrl, clientId: p.clientId, clientSecret: p.clientSecret, apiKey: p.apiKey, redirectUri: '' };
  const app = await startExampleApp({ config, faults: opts.faults ?? [], pages: true });
  config.redirectUri = `${app.url}/callback`;
  mock.ctx.credentials.redirectUri = config.redirectUri;
  try {
    const fields = pagesProfileFields(app.url);
    const { browser } = parseDriverFields(fields, 'test profile');
    const application = { authUrl: p.authUrl, connectUrl: fields.connectUrl as string, browser };
    const drivers = opts.browser ? await chromiumDrivers(application, { browser: opts.browser }) : httpDrivers(application);
    let probes: ProbeReport;
    try {
      probes = await runProbes({ ...application, controlUrl: p.controlUrl!, controlToken: p.controlToken!, userId: p.fixtures!.users[0]!.userId, drivers });
    } finally {
      await drivers.close();
    }
    const recording = mock.ctx.grading!.snapshot(p.clientId);
    return { judgements: withUndriven(judgeClient(recording.events, p.clientId, probes), drivers.undriven), probes, undriven: drivers.undriven };
  } finally {
    await app.close();
    await mock.close();
  }
}
