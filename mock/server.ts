/**
 * createMock(): the reference Lock Access Service on one fastify server.
 *   {url}/oauth     the OAuth server ({auth_url})
 *   {url}/api       the API ({base_url})
 *   {url}/_control  the control protocol (unless options.control === false)
 *   {url}/error     the page the token endpoint redirects malformed requests to
 *   {url}/callback  the demo application's redirect page (default redirect_uri)
 */
import { randomBytes } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TargetProfile } from '../harness/contracts.js';
import { registerApi } from './api/index.js';
import { Clock } from './clock.js';
import { ControlError, type Credentials, type MockContext, type MockOptions, type ResolvedMockOptions } from './context.js';
import { describeError, sendJsonError } from './control/errors.js';
import { answeredFixtures } from './control/fixture-extras.js';
import { makeOtherClient } from './oauth/other-clients.js';
import { registerControl } from './control/index.js';
import { FaultSet } from './faults.js';
import { FreedomSet } from './freedoms.js';
import { DEFAULT_ACCESS_TOKEN_LIFETIME_SEC } from './oauth/access-tokens.js';
import { registerOAuth } from './oauth/index.js';
import { answerAuthorizationWithError } from './oauth/authorization-fault.js';
import { registerCallbackPage } from './pages/callback.js';
import { registerErrorPage } from './pages/error-page.js';
import { MOCK_TIMEOUTS, timeoutOptions } from './server-timeouts.js';
import { registerSecurityHeaders } from './security-headers.js';
import { createWorld, snapshotWorld } from './world.js';
import { installGrading } from './grading/recorder.js';
import { applyStableIdentities } from './identities.js';
import { DeliveryLog } from './webhooks/delivery-log.js';
import { registerDeliveriesPage } from './pages/deliveries.js';
import { registerLandingPage } from './pages/landing.js';
import { registerOpenApi } from './docs/openapi.js';
import { DOCUMENTATION_ONLY_COMPILERS } from './documentation-only-compilers.js';
import { Jitter, delayAnswers } from './jitter.js';

export interface RunningMock {
  url: string;
  profile: TargetProfile;
  ctx: MockContext;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Large enough for any form or JSON body the spec describes, small enough to refuse junk. */
const BODY_LIMIT = 64 * 1024;

function resolveOptions(options: MockOptions): ResolvedMockOptions {
  const lifetime = options.accessTokenLifetimeSec ?? DEFAULT_ACCESS_TOKEN_LIFETIME_SEC;
  if (!Number.isInteger(lifetime) || lifetime <= 0) throw new RangeError('accessTokenLifetimeSec must be a positive integer');
  return {
    commandStyle: options.commandStyle ?? 'npm',
    developmentServer: options.developmentServer ?? false,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    control: options.control ?? true,
    accessTokenLifetimeSec: lifetime,
    signatureEncoding: options.signatureEncoding ?? 'hex',
    lowerCaseLockIds: options.lowerCaseLockIds ?? false,
    extraFields: options.extraFields ?? false,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 5000,
    emptyWebhookAnswers: options.emptyWebhookAnswers ?? false,
    signatureTimestampSeconds: options.signatureTimestampSeconds ?? false,
    signatureLayouts: options.signatureLayouts ?? false,
    bridgeListsAllLocks: options.bridgeListsAllLocks ?? false,
    lease: options.lease ?? true,
    revokeOnRefreshReplay: options.revokeOnRefreshReplay ?? false,
    freeSystemValues: options.freeSystemValues ?? false,
    deliveries: options.deliveries ?? true,
  };
}

/** Random per instance unless fixed by the caller; redirectUri is filled in once the URL is known. */
function makeCredentials(fixed: Partial<Credentials> = {}): Credentials {
  const random = (bytes: number) => randomBytes(bytes).toString('base64url');
  return {
    clientId: fixed.clientId ?? `client-${randomBytes(8).toString('hex')}`,
    clientSecret: fixed.clientSecret ?? random(32),
    apiKey: fixed.apiKey ?? randomBytes(24).toString('hex'),
    redirectUri: fixed.redirectUri ?? '',
    controlToken: fixed.controlToken ?? random(32),
    ...(fixed.loginRedirectUri !== undefined ? { loginRedirectUri: fixed.loginRedirectUri } : {}),
  };
}

/** Until the webhook side sets ctx.events (registerApi), event requests get a clear 422. */
const eventsUnavailable: MockContext['events'] = {
  async emit() {
    throw new ControlError(422, 'events_unavailable', 'this mock cannot emit events');
  },
};

export async function createMock(options: MockOptions = {}): Promise<RunningMock> {
  const resolved = resolveOptions(options);
  const world = createWorld({ lowerCaseLockIds: resolved.lowerCaseLockIds });
  const ctx: MockContext = {
    options: resolved,
    clock: new Clock(),
    faults: new FaultSet(options.faults ?? []),
    freedoms: new FreedomSet(options.freedoms ?? []),
    credentials: makeCredentials(options.credentials),
    world,
    log: options.log ?? (() => {}),
    tokens: {
      issue: async () => { throw new Error('access tokens are not available before the OAuth side starts'); },
      verify: async () => null,
    },
    events: eventsUnavailable,
    clientCredentialsEnabled: new Set(),
    onReset: [],
  };
  if (options.seed !== undefined) applyStableIdentities(ctx, options.seed, options.credentials);
  if (options.jitter) {
    ctx.jitter = new Jitter(options.jitter);
    ctx.log(ctx.jitter.describe());
  }
  ctx.deliveryLog = new DeliveryLog({ log: ctx.log });
  const restoreWorld = snapshotWorld(world);
  ctx.onReset.push(() => {
    restoreWorld();
    ctx.clientCredentialsEnabled.clear();
  });

  const logLevel = options.logLevel ?? 'silent';
  const app = Fastify({
    // fastify's own logger, quiet unless asked; request lines are off (URLs may carry codes and state).
    logger: logLevel === 'silent' ? false : { level: logLevel },
    logController: new LogController({ disableRequestLogging: true }),
    ...timeoutOptions({ ...MOCK_TIMEOUTS, ...options.serverTimeouts }),
    bodyLimit: BODY_LIMIT,
    // The route schemas document only: fastify's Ajv and fast-json-stringify are never loaded.
    schemaController: DOCUMENTATION_ONLY_COMPILERS,
    forceCloseConnections: true,
    // Errors fastify raises before routing (an undecodable path, an over-long parameter)
    // get the same {error, message} body as every other 4xx.
    frameworkErrors: (error, _request, reply) => {
      const described = describeError(error);
      return sendJsonError(reply, described.status, described.code, described.message);
    },
  });
  ctx.logger = app.log;
  app.setErrorHandler((error, request, reply) => {
    const described = describeError(error);
    if (described.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendJsonError(reply, described.status, described.code, described.message);
  });
  app.setNotFoundHandler((request, reply) => sendJsonError(reply, 404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`));
  if (options.grade) ctx.grading = installGrading(app, ctx, { fixedApiKey: !!options.credentials?.apiKey, fixedClientSecret: !!options.credentials?.clientSecret });

  await registerOpenApi(app, { control: resolved.control });
  await registerSecurityHeaders(app, ctx);
  await app.register(async (oauth) => {
    if (ctx.jitter) delayAnswers(oauth, ctx.jitter);
    answerAuthorizationWithError(oauth, ctx);
    await registerOAuth(oauth, ctx);
  }, { prefix: '/oauth' });
  await app.register(async (api) => {
    if (ctx.jitter) delayAnswers(api, ctx.jitter);
    await registerApi(api, ctx);
  }, { prefix: '/api' });
  if (resolved.control) await app.register(async (control) => registerControl(control, ctx), { prefix: '/_control' });
  registerErrorPage(app);
  registerCallbackPage(app);
  let published: TargetProfile | undefined;
  registerLandingPage(app, ctx, { profile: () => published, seed: options.seed });
  registerDeliveriesPage(app, ctx);

  await app.listen({ host: resolved.host, port: resolved.port });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the mock did not get a TCP address');
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const url = `http://${host}:${address.port}`;
  if (!ctx.credentials.redirectUri) ctx.credentials.redirectUri = `${url}/callback`;
  ctx.otherClients ??= [makeOtherClient(url, options.seed)];

  const profile: TargetProfile = {
    authUrl: `${url}/oauth`,
    baseUrl: `${url}/api`,
    clientId: ctx.credentials.clientId,
    clientSecret: ctx.credentials.clientSecret,
    apiKey: ctx.credentials.apiKey,
    redirectUri: options.profileRedirectUri ?? ctx.credentials.redirectUri,
    ...(resolved.control ? { controlUrl: `${url}/_control`, controlToken: ctx.credentials.controlToken } : {}),
    fixtures: answeredFixtures(ctx),
    statusCheck: { method: 'PUT', path: '/remoteoperate/{lockId}/status' },
  };

  published = profile;
  let closed: Promise<void> | null = null;
  return {
    url,
    profile,
    ctx,
    app,
    close: () => (closed ??= app.close()),
  };
}
