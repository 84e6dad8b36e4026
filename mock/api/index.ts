/** The API at {base_url}: headers and rotation, users, remote operation, webhooks. */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.js';
import { LockEventService } from '../events/event-service.js';
import { WebhookDeliverer } from '../webhooks/delivery.js';
import { WebhookRegistry } from '../webhooks/registry.js';
import { installAuthentication, TokenDenylist } from './authentication.js';
import { installErrorHandlers } from './errors.js';
import { installJsonBodyParser } from './json-body.js';
import { registerRemoteOperateRoutes } from './remote-operate.js';
import { registerUserRoutes } from './users.js';
import { registerWebhookRoutes } from './webhook-routes.js';

/** The API's stateful parts, for tests that need to reach behind the HTTP surface. */
export interface ApiServices {
  registry: WebhookRegistry;
  deliverer: WebhookDeliverer;
  events: LockEventService;
  denylist: TokenDenylist;
}

/** Builds the registry, deliverer and event service, sets ctx.events and registers their reset. */
export function createApiServices(ctx: MockContext): ApiServices {
  const registry = new WebhookRegistry(ctx.faults, () => ctx.clock.now());
  registry.lockmatesOf = (userId) => new Set(ctx.world.locks.filter((l) => l.members.has(userId)).flatMap((l) => [...l.members.keys()]));
  const deliverer = new WebhookDeliverer(ctx);
  const events = new LockEventService(ctx, registry, deliverer);
  const denylist = new TokenDenylist();
  ctx.events = events;
  ctx.onReset.push(() => {
    registry.clear();
    denylist.clear();
  });
  return { registry, deliverer, events, denylist };
}

/** Registers every API route on `app` (already scoped under /api) and sets ctx.events. */
export async function registerApi(app: FastifyInstance, ctx: MockContext): Promise<ApiServices> {
  const services = createApiServices(ctx);
  installErrorHandlers(app, (err) => ctx.log(`API internal error: ${(err as Error)?.name ?? 'error'}`));
  installJsonBodyParser(app);
  installAuthentication(app, ctx, services.denylist);
  registerUserRoutes(app, ctx);
  registerRemoteOperateRoutes(app, ctx, services.events);
  registerWebhookRoutes(app, ctx, services.registry);
  app.addHook('onClose', async () => {
    await services.deliverer.close();
  });
  return services;
}
