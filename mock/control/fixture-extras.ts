/**
 * GET /_control/fixtures as answered: the world's users and locks (fixtures.ts) and the
 * optional fields of the control protocol the mock offers: `clients`, the further
 * credentials registered for the run (mock/oauth/other-clients.ts), and `deliveryTimeoutMs`
 * (docs/control-protocol-extensions.md), how long a webhook receiver gets to answer, and
 * `developmentServer` when someone uses this mock by hand (`lockconf mock`).
 */
import type { Fixtures } from '../../harness/contracts.js';
import type { MockContext } from '../context.js';
import { fixturesOf } from './fixtures.js';

export function answeredFixtures(ctx: MockContext): Fixtures {
  const clients = ctx.otherClients ?? [];
  return { ...fixturesOf(ctx.world), ...(clients.length > 0 ? { clients: clients.map((c) => ({ ...c })) } : {}), deliveryTimeoutMs: ctx.options.deliveryTimeoutMs, ...(ctx.options.developmentServer ? { developmentServer: true } : {}) };
}
