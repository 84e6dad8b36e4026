/** An exploration port over a mock started in this process (the harness's own HTTP and control clients). */
import type { MockOptions } from '../../../mock/context.js';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { createFlows } from '../../../harness/wire/oauth-flows.js';
import { HttpClient } from '../../../harness/wire/http.js';
import { ControlClient } from '../../../harness/wire/control-client.js';
import { Redactor } from '../../../harness/wire/redact.js';
import { targetFromSetup } from '../../../harness/service/target.js';
import type { LockconfSetup } from '../../../harness/contracts.js';
import { harnessPort, type ExplorePort } from '../../../suites/explore/port.js';
import { startCaptureServer } from '../../../harness/wire/capture/server.js';
import { CaptureClient } from '../../../harness/wire/capture/client.js';
import { statusCheckRoute } from '../../../suites/support/status-check.js';
import type { SuiteContext } from '../../../suites/support/context.js';

/** The waits of the webhook steps in these tests: the embedded mock delivers within milliseconds. */
const WAIT_MS = 5_000;
const QUIET_MS = 250;

export async function withMockPort<T>(options: MockOptions, fn: (port: ExplorePort, mock: RunningMock, redactor: Redactor) => Promise<T>): Promise<T> {
  const mock = await createMock(options);
  const capture = await startCaptureServer();
  try {
    const inboxes = new CaptureClient(capture, { label: 'explore' });
    const profile = mock.profile;
    const redactor = Redactor.fromProfile(profile);
    // The HttpClient keeps every exchange; a fresh one per port keeps the log to this exploration.
    const http = new HttpClient({ profile, redactor });
    const control = new ControlClient({ controlUrl: profile.controlUrl!, controlToken: profile.controlToken!, http, clientId: profile.clientId, redactor });
    const fixtures = await control.fixtures();
    const setup: LockconfSetup = {
      profile, mock: true, fixtures, capabilities: ['control', 'consent', 'user-token', 'second-user', 'clock', 'client-credentials', 'revoke'],
      missing: {}, capture: null, seed: 1, runDir: null,
    };
    const target = targetFromSetup(setup, redactor);
    const flows = createFlows({ target, http, control });
    const port = harnessPort({
      profile, second: fixtures.clients?.[0] ?? null, users: fixtures.users.length, http, flows, control, redactor,
      has: (c) => setup.capabilities.includes(c),
      hooks: {
        fixtures,
        newInbox: (label) => inboxes.newInbox({ label }),
        statusRoute: (lockId) => statusCheckRoute({ target } as unknown as SuiteContext, lockId),
        waitMs: WAIT_MS,
        quietMs: QUIET_MS,
      },
    });
    return await fn(port, mock, redactor);
  } finally {
    await capture.close();
    await mock.close();
  }
}
