/**
 * The rules of the application's API calls, each on every endpoint the spec
 * names: the three headers as issued, the newest x-access-token adopted, a 401
 * ending the token (the 401 probe family: one per kind of call), and what a
 * webhook registration or deletion names and carries.
 */
import type { ApiEvent, GradedEvent } from '../../../mock/grading/recording.js';
import { endpointOf, grantOf, isJson, sessionStopped, whyNot, window, type ProbeReport, type Rule, type Violation } from './model.js';

export const LOCK_GROUPS: readonly string[] = ['operation', 'operation.type', 'configuration', 'battery', 'systemstatus', 'accessmgmt'];
export const USER_GROUPS: readonly string[] = ['lockmembership', 'lifecycle'];

/**
 * The webhook endpoint a call that is none of them was meant as: a registration sent by another method
 * (a write carrying a body to a registration's path), a deletion without :clientID or misspelt. A call the
 * spec does not show (a GET that reads or lists registrations, say) is meant as none: "All other API
 * endpoints: not shown", so it is not judged.
 */
export function meantWebhookEndpoint(method: string, route: string, hasBody = true): string | null {
  const segments = route.split('/').filter(Boolean);
  if (segments[0] !== 'webhook' || segments.length < 2) return null;
  const user = /^users?$/i.test(segments[1] ?? ''); // "users", "User": the user endpoint, misspelt
  if (method === 'DELETE') return user ? 'DELETE /webhook/user' : 'DELETE /webhook/:lockID/:clientID';
  if (segments.length === 2 && hasBody && ['POST', 'PUT', 'PATCH'].includes(method)) return user ? 'POST /webhook/user' : 'POST /webhook/:lockID';
  return null;
}

/** Whether an answer carried a body (older recordings: by its status; 204 and 205 carry none). */
function answerBody(e: ApiEvent): 'with-body' | 'no-body' {
  return (e.answerBody ?? (e.status !== 204 && e.status !== 205)) ? 'with-body' : 'no-body';
}

export function apiRules(events: readonly GradedEvent[], allEvents: readonly GradedEvent[], clientId: string, probes: ProbeReport): Rule[] {
  const api = events.filter((e): e is ApiEvent => e.type === 'api');
  const noApiCall = 'the application made no API call';
  const byEndpoint = { endpoint: endpointOf };
  const never = (_dim: string, endpoint: string) => `the application never called ${endpoint}`;
  // Access tokens issued to this client: a token response's access_token, a successful answer's x-access-token.
  const issuedAccess = new Set<string>();
  for (const e of events) {
    if (e.type === 'token' && e.issuedAccessFp) issuedAccess.add(e.issuedAccessFp);
    if (e.type === 'api' && e.rotatedFp) issuedAccess.add(e.rotatedFp);
  }
  const header = (id: string, bad: (e: ApiEvent) => string | null): Rule => ({
    id, applies: api, untested: noApiCall, sliceOf: byEndpoint, untestedSlice: never,
    violations: api.flatMap((e): Violation[] => {
      const why = bad(e);
      return why ? [[e, why]] : [];
    }),
  });
  const rules: Rule[] = [
    header('CLIENT-API-KEY-HEADER', (e) => (e.apiKey === 'missing' ? 'x-api-key missing' : e.apiKey === 'wrong' ? 'x-api-key is not the credential\'s API key' : null)),
    header('CLIENT-API-ACCESS-TOKEN-HEADER', (e) => (e.accessToken === 'missing'
      ? 'no x-access-token'
      : e.accessFp && !issuedAccess.has(e.accessFp) ? 'x-access-token is not an access token the service issued to this client' : null)),
    header('CLIENT-API-CONTENT-TYPE', (e) => (isJson(e.contentType) ? null : `content-type ${e.contentType ?? 'missing'}`)),
    header('CLIENT-API-HEADERS-NOT-ENCODED', (e) => {
      const encoded = [e.apiKey === 'url-encoded' && 'x-api-key', e.accessToken === 'url-encoded' && 'x-access-token'].filter(Boolean);
      return encoded.length ? `URL-encoded: ${encoded.join(', ')}` : null;
    }),
  ];

  // Rotation: a token whose answer carried a successor, presented again after that answer arrived (slice: the answering endpoint).
  const successors = api.filter((e) => e.rotatedFp && e.accessFp);
  const stale = api.flatMap((e): Violation[] => {
    const replaced = successors.find((s) => s.accessFp === e.accessFp && s.endTick < e.startTick && s !== e);
    return replaced ? [[e, `an access token replaced by the x-access-token of #${replaced.seq} (${endpointOf(replaced) ?? replaced.route}, answered ${replaced.status} ${answerBody(replaced) === 'no-body' ? 'without' : 'with'} a body) was presented again`, { endpoint: endpointOf(replaced) ?? '', 'answer-status': String(replaced.status), 'answer-body': answerBody(replaced) }]] : [];
  });
  const followed = successors.filter((s) => api.some((e) => e.startTick > s.endTick));
  rules.push({
    id: 'CLIENT-ADOPT-NEW-ACCESS-TOKEN', applies: followed, untested: 'no API call followed an answer that carried a new x-access-token', violations: stale,
    sliceOf: { ...byEndpoint, 'answer-status': (e) => (e.type === 'api' ? String(e.status) : null), 'answer-body': (e) => (e.type === 'api' ? answerBody(e) : null) },
    untestedSlice: (dim, value) => {
      const probe = probes.answers?.find((p) => !p.ran && (dim === 'answer-status' ? p.status === value : (p.body === 'empty') === (value === 'no-body')));
      const notRun = probe ? ` (the ${probe.probe ?? probe.status} answer probe did not run: ${whyNot(probe, '')})` : '';
      if (dim === 'answer-status') return `no API call followed an answer ${value} that carried a new x-access-token${notRun}`;
      if (dim === 'answer-body') return `no API call followed an answer ${value === 'no-body' ? 'without' : 'with'} a body that carried a new x-access-token${notRun}`;
      return `no API call followed an answer of ${value} that carried a new x-access-token`;
    },
  });

  // 401: the refused token is not presented again (every kind of call); browsing the app's page, authorization follows.
  const refused401 = api.filter((e) => e.status === 401);
  // The 401 of each flow-point probe: the first 401 of this client between its marks.
  const pointOf = new Map<GradedEvent, string>();
  for (const p of probes.api401Points ?? []) {
    if (!p.ran) continue;
    const hit = (window(allEvents, `api-401:${p.point}`) ?? []).find((e) => e.type === 'api' && e.clientId === clientId && e.status === 401);
    if (hit) pointOf.set(hit, p.point);
  }
  const reauth: Violation[] = [];
  for (const e of refused401) {
    const again = api.find((a) => a.accessFp === e.accessFp && a.startTick > e.endTick);
    if (e.accessFp && again) reauth.push([again, `the access token refused with 401 in #${e.seq} (${endpointOf(e) ?? e.route}${pointOf.has(e) ? `, ${pointOf.get(e)}` : ''}) was presented again`, { endpoint: endpointOf(e) ?? '', 'flow-point': pointOf.get(e) ?? '' }]);
  }
  const probeWindow = probes.api401?.ran ? window(allEvents, 'api-401') : null;
  if (probeWindow) {
    const hit = probeWindow.find((e): e is ApiEvent => e.type === 'api' && e.clientId === clientId && e.status === 401);
    const next = hit && probeWindow.find((e) => e.type === 'authorize' && e.clientId === clientId && e.startTick > hit.endTick);
    if (hit && !next) reauth.push([hit, 'after this 401 on the application\'s page neither the application nor its connect address sent the user through authorization again']);
  }
  const family = probes.api401Family ?? [];
  // "The user must authorize again": within each 401 probe, a refresh grant that comes before any authorization replaces it.
  const windows = [
    ...(probes.api401?.ran ? ['api-401'] : []),
    ...(probes.api401Points ?? []).filter((p) => p.ran).map((p) => `api-401:${p.point}`),
    ...family.filter((p) => p.ran).map((p) => `api-401@${p.endpoint}`),
  ];
  for (const label of windows) {
    const w = window(allEvents, label) ?? [];
    const hit = w.find((e): e is ApiEvent => e.type === 'api' && e.clientId === clientId && e.status === 401);
    if (!hit) continue;
    const next = w.find((e) => e.startTick > hit.endTick && e.clientId === clientId && (e.type === 'authorize' || grantOf(e) === 'refresh_token'));
    if (next && next.type === 'token') {
      reauth.push([next, `a refresh grant followed the 401 of #${hit.seq} (${endpointOf(hit) ?? hit.route}) before the user was sent through authorization again`, { endpoint: endpointOf(hit) ?? '', 'flow-point': pointOf.get(hit) ?? '' }]);
    }
  }
  rules.push({
    id: 'CLIENT-REAUTHORIZE-ON-401', applies: refused401,
    untested: `no API call of the application was answered 401${probes.api401 && !probes.api401.ran ? ` (the 401 probe did not run: ${probes.api401.why})` : ''}`,
    violations: reauth, sliceOf: { ...byEndpoint, 'flow-point': (e) => pointOf.get(e) ?? null },
    untestedSlice: (dim, value) => {
      if (dim === 'flow-point') {
        const p = probes.api401Points?.find((x) => x.point === value);
        return p && !p.ran ? `the 401 probe ${value} did not run: ${p.why}` : `the 401 armed ${value} landed on no API call of the application`;
      }
      const p = family.find((x) => x.endpoint === value);
      return p && !p.ran ? `the 401 probe on ${value} did not run: ${p.why}` : `the application made no ${value} call after the mock armed a 401 for it`;
    },
  });

  const stopped = sessionStopped(probes); // the session's actions register and delete the webhooks
  const registrations = api.filter((e) => e.registration);
  const deletes = api.filter((e) => e.method === 'DELETE' && e.route.startsWith('/webhook/'));
  const namingClient = [...registrations.filter((e) => e.registration!.clientIdOwn !== null), ...deletes.filter((e) => e.deleteClientIdOwn !== null)];
  rules.push({
    id: 'CLIENT-WEBHOOK-CLIENT-ID', applies: namingClient, untested: `the application registered or deleted no webhook naming a clientID${stopped}`, sliceOf: byEndpoint,
    untestedSlice: (_dim, endpoint) => `the application made no ${endpoint} call naming a clientID`,
    violations: namingClient.filter((e) => e.registration?.clientIdOwn === false || e.deleteClientIdOwn === false).map((e): Violation => [e, 'a clientID that is not the application\'s own client_id']),
  });
  // Values, not presence: every group name is judged, and notificationTypes must be an array of string to hold any.
  const groupTypeErrors = (e: ApiEvent) => (e.registration?.typeErrors ?? []).filter((t) => t.startsWith('notificationTypes') || t.startsWith('the body'));
  rules.push({
    id: 'CLIENT-WEBHOOK-GROUPS', applies: registrations, untested: `the application registered no webhook${stopped}`, sliceOf: byEndpoint, untestedSlice: never,
    judged: registrations.reduce((n, e) => n + e.registration!.groups.length + groupTypeErrors(e).length, 0),
    judgedNothing: 'no registration named a group (notificationTypes absent or empty)',
    violations: registrations.flatMap((e): Violation[] => {
      const reg = e.registration!;
      const valid = reg.kind === 'user' ? USER_GROUPS : LOCK_GROUPS;
      const bad = reg.groups.filter((g) => !valid.includes(g));
      const wrongType = groupTypeErrors(e);
      return [
        ...(wrongType.length ? [[e, `${reg.kind} registration: ${wrongType.join('; ')}`] as Violation] : []),
        ...(bad.length ? [[e, `${reg.kind} registration asks for groups that are not ${reg.kind} groups: ${bad.join(', ')}`] as Violation] : []),
      ];
    }),
  });
  // The other fields of the registration, by type (url a URL, method, header and token strings).
  const otherTypeErrors = (e: ApiEvent) => (e.registration?.typeErrors ?? []).filter((t) => /^(url|method|header|token) /.test(t));
  rules.push({
    id: 'CLIENT-WEBHOOK-FIELD-TYPES', applies: registrations, untested: `the application registered no webhook${stopped}`, sliceOf: byEndpoint, untestedSlice: never,
    violations: registrations.flatMap((e): Violation[] => (otherTypeErrors(e).length ? [[e, `${e.registration!.kind} registration: ${otherTypeErrors(e).join('; ')}`]] : [])),
  });
  // The method and path of every call meant as one of the four webhook endpoints the spec names (others are not shown: not judged).
  const meant = (e: GradedEvent): string | null => (e.type === 'api' ? endpointOf(e) ?? meantWebhookEndpoint(e.method, e.route, e.hasBody) : null);
  const webhookCalls = api.filter((e) => e.route.startsWith('/webhook') && meant(e) !== null);
  rules.push({
    id: 'CLIENT-WEBHOOK-ENDPOINT', applies: webhookCalls, untested: `the application made no call meant as one of the four webhook endpoints${stopped}`, sliceOf: { endpoint: meant }, untestedSlice: never,
    violations: webhookCalls.filter((e) => endpointOf(e) === null).map((e): Violation => [e, `${e.method} ${e.route} is none of the webhook endpoints the spec names (POST /webhook/:lockID, POST /webhook/user, DELETE /webhook/:lockID/:clientID, DELETE /webhook/user)`]),
  });
  rules.push({
    id: 'CLIENT-DELETE-NO-BODY', applies: deletes, untested: `the application deleted no webhook registration${stopped}`, sliceOf: byEndpoint, untestedSlice: never,
    violations: deletes.filter((e) => e.hasBody).map((e): Violation => [e, 'a DELETE with a body']),
  });
  return rules;
}
