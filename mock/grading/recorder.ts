/**
 * The grading recorder: fastify hooks on the whole mock that write one event per
 * request an application's client makes (recording.ts), and fire the probes
 * lockconf armed (store.ts). Hooked into mock/server.ts by installGrading() when
 * the mock runs with `grade: true`; nothing else of the mock changes.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.js';
import { isMalformedForm } from '../oauth/form-body.js';
import { basicCredentials, decodedHeader, formEncodingErrors, formValueState, gradingApiKey, gradingClientSecret, headerState, placesOf, queryNames, redirectUriDiff, registrationTypeErrors, specEndpointName, stringFields, unencodedParams } from './inspect.js';
import { fingerprint, type ApiEvent, type TokenEvent } from './recording.js';
import { GradingStore } from './store.js';


/** A form's fields, a field given more than once by its first value (the repetition is recorded and judged apart). */
function firstValues(body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const first: unknown = Array.isArray(v) ? v.find((x) => typeof x === 'string') : v;
    if (typeof first === 'string') out.set(k, first);
  }
  return out;
}

/** The serialised answer of a request, kept between onSend and onResponse. */
const payloads = new WeakMap<FastifyRequest, string>();
/** The tick a request arrived at. */
const arrivals = new WeakMap<FastifyRequest, number>();

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '';
}

function jsonOf(text: string | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Installs the recorder on the root app (before the routes are registered); returns its store.
 * Unless the caller fixed the API key, it becomes one that URL-encoding changes, so an
 * encoded x-api-key header can be told from the real one.
 */
export function installGrading(app: FastifyInstance, ctx: MockContext, opts: { fixedApiKey?: boolean; fixedClientSecret?: boolean } = {}): GradingStore {
  const store = new GradingStore();
  if (!opts.fixedApiKey) ctx.credentials.apiKey = gradingApiKey(randomBytes(24));
  // …and the client secret one that a form body built without URL-encoding alters.
  if (!opts.fixedClientSecret) ctx.credentials.clientSecret = gradingClientSecret(randomBytes(24));
  const secret = () => ctx.credentials.clientSecret;

  app.addHook('onRequest', async (request) => {
    arrivals.set(request, store.tick());
  });

  app.addHook('preHandler', async (request, reply) => {
    // The armed 401 answers once the body is read, so that the refused request (a registration, say) is recorded in full.
    if (pathOf(request).startsWith('/api/')) {
      if (store.takeApi401(specEndpointName(request.method, request.routeOptions.url ?? pathOf(request)))) {
        const status = store.api401Status();
        if (status !== 401) return reply.code(status).send({ error: 'unavailable', message: 'the service could not answer this call now' });
        return reply.code(401).send({ error: 'invalid_token', message: 'x-access-token is invalid or expired; the user must authorize again' });
      }
      return;
    }
    if (!pathOf(request).endsWith('/oauth/access_token')) return;
    const failure = store.takeTokenError();
    if (failure === 302) return reply.code(302).header('location', '/error').send();
    if (failure === 400) return reply.code(400).send({ error: 'invalid_request', error_description: 'the request could not be answered' });
    if (failure !== null) return reply.code(failure).send({ error: 'unavailable', message: 'the service could not answer this request now' });
    const form = stringFields(request.body);
    const token = form.get('refresh_token');
    if (form.get('grant_type') !== 'refresh_token') return;
    // Two refreshes in flight: the first is held until a second arrives (or the bound passes), the second releases it.
    if (store.take('refresh-in-flight')) await store.holdRefresh();
    else store.releaseHeld();
    if (token && store.take('refresh-refused')) ctx.oauth?.revokeRefreshToken(token);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A refresh granted: an armed 401 waiting for one lands on the client's next API call (marked before the answer leaves).
    if (pathOf(request).endsWith('/oauth/access_token') && reply.statusCode === 200 && stringFields(request.body).get('grant_type') === 'refresh_token') store.refreshed();
    // The armed answers: a successful API write answered 201 or 204 instead (every 2xx is a success; the new x-access-token stays).
    if (pathOf(request).startsWith('/api/') && request.method !== 'GET' && reply.statusCode === 200) {
      if (store.take('answer-204')) {
        reply.code(204);
        return '';
      }
      if (store.take('answer-201')) reply.code(201);
      const answer = store.takeAnswer();
      if (answer) {
        reply.code(answer.status);
        if (answer.empty) {
          reply.removeHeader('content-type');
          payloads.set(request, '');
          return '';
        }
      }
    }
    if (typeof payload === 'string') payloads.set(request, payload);
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    try {
      await record(request, reply);
    } catch {
      // Grading is an observer: it never changes an answer, and never fails one.
    }
  });

  async function record(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const path = pathOf(request);
    const at = ctx.clock.now();
    const ticks = { startTick: arrivals.get(request) ?? store.tick(), endTick: store.tick() };
    const status = reply.statusCode;
    if (path.endsWith('/oauth/authorization') && request.method === 'GET') {
      const q = new URL(request.url, 'http://mock.invalid').searchParams;
      const redirectUri = q.get('redirect_uri');
      store.add({
        // A request naming no client is the mock's own client's (a grading mock serves one): judged, never filtered out.
        type: 'authorize', at, ...ticks, clientId: q.get('client_id') || ctx.credentials.clientId, status,
        hasClientId: !!q.get('client_id'), hasRedirectUri: !!redirectUri, hasState: !!q.get('state'),
        ...(redirectUri ? { redirectUriParts: redirectUriDiff(redirectUri, ctx.credentials.redirectUri) } : {}),
        unencoded: unencodedParams(request.url, ['client_id', 'redirect_uri', 'state']),
        secretIn: placesOf(secret(), [['url', request.url]]),
      });
    } else if (path.endsWith('/oauth/consent') || path.endsWith('/_control/consent')) {
      recordRedirect(request, reply, at, ticks);
    } else if (path.endsWith('/oauth/access_token')) {
      store.add({ ...tokenEvent(request, at, status), ...ticks });
    } else if (path.startsWith('/api/')) {
      store.add({ ...(await apiEvent(request, reply, at, status)), ...ticks });
    }
  }

  function recordRedirect(request: FastifyRequest, reply: FastifyReply, at: number, ticks: { startTick: number; endTick: number }): void {
    const control = pathOf(request).endsWith('/_control/consent');
    const location = control ? jsonOf(payloads.get(request))?.location : reply.getHeader('location');
    if (typeof location !== 'string' || !location) return;
    let params: URLSearchParams;
    try {
      params = new URL(location).searchParams;
    } catch {
      return;
    }
    let clientId: string | null = ctx.credentials.clientId;
    if (control) {
      const url = stringFields(request.body).get('authorizationUrl');
      try {
        clientId = url ? new URL(url).searchParams.get('client_id') : null;
      } catch {
        clientId = null;
      }
    }
    const code = params.get('code');
    store.add({ type: 'redirect', at, ...ticks, clientId, codeFp: code ? fingerprint(code) : null, denied: params.get('error') === 'access_denied' });
  }

  function tokenEvent(request: FastifyRequest, at: number, status: number): Omit<TokenEvent, 'seq' | 'startTick' | 'endTick'> {
    const contentType = header(request, 'content-type') ?? null;
    const isForm = contentType?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
    const form = isForm ? firstValues(request.body) : new Map<string, string>();
    const query = new URL(request.url, 'http://mock.invalid').searchParams;
    const authorization = header(request, 'authorization');
    const basic = basicCredentials(authorization);
    const otherHeaders = Object.entries(request.headers)
      .filter(([name]) => name !== 'authorization')
      .map(([name, v]): [string, string | undefined] => [`header:${name}`, Array.isArray(v) ? v.join(',') : v]);
    const body = isForm ? undefined : request.body === undefined ? undefined : JSON.stringify(request.body);
    const answer = jsonOf(payloads.get(request));
    const code = form.get('code') ?? query.get('code');
    const refresh = form.get('refresh_token') ?? query.get('refresh_token');
    const repeated = isForm && request.body && typeof request.body === 'object'
      ? Object.entries(request.body as Record<string, unknown>).filter(([, v]) => Array.isArray(v)).map(([k]) => k)
      : [];
    const named = form.get('client_id') ?? stringFields(request.body).get('client_id') ?? query.get('client_id') ?? basic?.id;
    // A request carrying the mock's own secret is the mock's own client's, whatever client_id it names (a wrong value is judged, not filtered out).
    const own = named === undefined || form.get('client_secret') === secret() || formValueState(form.get('client_secret'), secret()) === 'not-encoded';
    return {
      type: 'token', at, status,
      // A body that is not a form still names its client (JSON, say): the request is this client's mistake.
      // …and one that names no client at all is the mock's own client's.
      clientId: own ? ctx.credentials.clientId : named,
      clientIdValue: formValueState(form.get('client_id'), ctx.credentials.clientId),
      secretValue: formValueState(form.get('client_secret'), secret()),
      malformed: isMalformedForm(request.body),
      encodingErrors: formEncodingErrors(form, secret()),
      repeated,
      method: request.method,
      contentType,
      bodyFields: [...form.keys()],
      queryFields: queryNames(request.url),
      grantType: form.get('grant_type') ?? stringFields(request.body).get('grant_type') ?? query.get('grant_type') ?? null,
      basicHeader: /^Basic\s/i.test(authorization ?? ''),
      secretIn: placesOf(secret(), [['url', request.url], ...otherHeaders, ['body (not a form)', body]]),
      codeFp: code ? fingerprint(code) : null,
      refreshFp: refresh ? fingerprint(refresh) : null,
      issuedAccessFp: typeof answer?.access_token === 'string' && status === 200 ? fingerprint(answer.access_token) : null,
      issuedRefreshFp: typeof answer?.refresh_token === 'string' && status === 200 ? fingerprint(answer.refresh_token) : null,
    };
  }

  async function apiEvent(request: FastifyRequest, reply: FastifyReply, at: number, status: number): Promise<Omit<ApiEvent, 'seq' | 'startTick' | 'endTick'>> {
    const route = (request.routeOptions.url ?? pathOf(request)).replace(/^\/api/, '');
    const apiKey = headerState(request.headers['x-api-key'], ctx.credentials.apiKey);
    const token = decodedHeader(request.headers['x-access-token']);
    let clientId: string | null = apiKey === 'ok' || apiKey === 'url-encoded' ? ctx.credentials.clientId : null;
    if (clientId === null && token) clientId = (await ctx.tokens.verify(token))?.clientId ?? null;
    clientId ??= ctx.credentials.clientId; // a call naming no client is the mock's own client's (a grading mock serves one)
    const json = stringFields(request.body);
    const rawBody = request.body === undefined || request.body === null ? undefined : JSON.stringify(request.body);
    const length = Number(header(request, 'content-length') ?? '0');
    const rotated = reply.getHeader('x-access-token');
    const headers = Object.entries(request.headers).map(([name, v]): [string, string | undefined] => [`header:${name}`, Array.isArray(v) ? v.join(',') : v]);
    const basic = basicCredentials(header(request, 'authorization'));
    // The secret in a Basic header, URL-encoded as RFC 6749 §2.3.1 asks or as it is.
    const basicText = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header(request, 'authorization') ?? '')?.[1];
    if ((basic && basic.secret === secret()) || (basicText && Buffer.from(basicText, 'base64').toString('utf8').includes(secret()))) headers.push(['header:authorization (Basic)', secret()]);
    let registration: ApiEvent['registration'] = null;
    if (request.method === 'POST' && route.startsWith('/webhook/')) {
      const groups = request.body && typeof request.body === 'object' ? (request.body as { notificationTypes?: unknown }).notificationTypes : undefined;
      const named = request.body && typeof request.body === 'object' ? (request.body as { clientID?: unknown }).clientID : undefined;
      registration = {
        kind: route === '/webhook/user' ? 'user' : 'lock',
        // A clientID of another type (a number, an array) is not the client_id either: judged by value.
        clientIdOwn: named === undefined ? null : named === clientId,
        groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
        typeErrors: registrationTypeErrors(request.body),
      };
    }
    const deleteClientId = request.method === 'DELETE' && route === '/webhook/:lockID/:clientID'
      ? decodeURIComponent(pathOf(request).split('/').pop() ?? '')
      : null;
    return {
      type: 'api', at, status, clientId, route,
      method: request.method,
      apiKey,
      accessToken: headerState(request.headers['x-access-token'], null),
      accessFp: token ? fingerprint(token) : null,
      contentType: header(request, 'content-type') ?? null,
      hasBody: length > 0 || header(request, 'transfer-encoding') !== undefined,
      secretIn: placesOf(secret(), [['url', request.url], ...headers, ['body', rawBody]]),
      rotatedFp: typeof rotated === 'string' && status >= 200 && status < 300 ? fingerprint(rotated) : null,
      answerBody: (payloads.get(request) ?? '').length > 0 && status !== 204 && status !== 205,
      registration,
      deleteClientIdOwn: deleteClientId === null ? null : deleteClientId === clientId,
    };
  }

  return store;
}
