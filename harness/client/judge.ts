/**
 * The judgement of an application's OAuth client: the grading mock's recording
 * (mock/grading/recording.ts) and what lockconf's probes did → one outcome per
 * CLIENT- requirement. Pure: no I/O, no clock.
 *
 * An outcome is `passed` when the rule was exercised and held every time,
 * `failed` with each violation listed, or `not-tested` with the reason (the app
 * never refreshed, made no API call, …). The level (MUST fails, SHOULD warns) is
 * applied by the runner, as for every conformance test.
 */
import type { ApiEvent, AuthorizeEvent, GradedEvent, MarkEvent, RedirectEvent, TokenEvent } from '../../mock/grading/recording.js';

export type ClientStatus = 'passed' | 'failed' | 'not-tested';

export interface ClientJudgement {
  id: string;
  status: ClientStatus;
  /** Why it failed (the violations) or was not tested; what was checked when it passed. */
  reason: string;
  /** How many recorded requests the rule was checked on. */
  checked: number;
  /** One line per violation (empty unless failed). */
  violations: string[];
  /** The requests that show it, one line each (fingerprints only, never a token). */
  evidence: string[];
}

/** What the probes (probes.ts) did; a probe that could not run says why. */
export interface ProbeReport {
  tamperedState?: { ran: true; codeFp: string } | { ran: false; why: string };
  denial?: { ran: true } | { ran: false; why: string };
  api401?: { ran: true } | { ran: false; why: string };
  refreshRefused?: { ran: true } | { ran: false; why: string };
}

export const LOCK_GROUPS: readonly string[] = ['operation', 'operation.type', 'configuration', 'battery', 'systemstatus', 'accessmgmt'];
export const USER_GROUPS: readonly string[] = ['lockmembership', 'lifecycle'];

const short = (fp: string | null) => (fp ? `#${fp.slice(0, 8)}` : '—');

/** One line per recorded request, for evidence. */
export function describeEvent(e: GradedEvent): string {
  switch (e.type) {
    case 'authorize':
      return `#${e.seq} GET /authorization (client_id ${e.hasClientId ? 'yes' : 'no'}, redirect_uri ${e.hasRedirectUri ? 'yes' : 'no'}, state ${e.hasState ? 'yes' : 'no'}) → ${e.status}`;
    case 'redirect':
      return `#${e.seq} redirect back to the app: ${e.denied ? 'error=access_denied' : `code ${short(e.codeFp)}`}`;
    case 'token':
      return `#${e.seq} ${e.method} /access_token grant_type=${e.grantType ?? '—'} content-type=${e.contentType ?? '—'} body fields [${e.bodyFields.join(', ')}]${e.queryFields.length ? ` query [${e.queryFields.join(', ')}]` : ''}${e.basicHeader ? ' Authorization: Basic' : ''}${e.codeFp ? ` code ${short(e.codeFp)}` : ''}${e.refreshFp ? ` refresh_token ${short(e.refreshFp)}` : ''} → ${e.status}${e.issuedRefreshFp ? ` (new refresh_token ${short(e.issuedRefreshFp)})` : ''}`;
    case 'api':
      return `#${e.seq} ${e.method} ${e.route} x-api-key ${e.apiKey}, x-access-token ${e.accessToken} ${short(e.accessFp)}, content-type ${e.contentType ?? '—'}${e.hasBody ? ', with a body' : ''} → ${e.status}${e.rotatedFp ? ` (new x-access-token ${short(e.rotatedFp)})` : ''}`;
    case 'mark':
      return `#${e.seq} probe mark: ${e.label}`;
  }
}

interface Rule {
  id: string;
  /** The requests the rule applies to; none → not tested with `untested`. */
  applies: GradedEvent[];
  untested: string;
  /** The violations: the event and what is wrong with it. */
  violations: Array<[GradedEvent, string]>;
  /** A reason the rule cannot be judged at all (a probe that did not run), taking precedence. */
  notTested?: string | null;
}

function settle(rule: Rule): ClientJudgement {
  if (rule.violations.length > 0) {
    const lines = rule.violations.slice(0, 20).map(([e, why]) => `${why}: ${describeEvent(e)}`);
    const more = rule.violations.length > 20 ? [`… and ${rule.violations.length - 20} more`] : [];
    return { id: rule.id, status: 'failed', reason: [...lines, ...more].join('\n'), checked: rule.applies.length, violations: [...lines, ...more], evidence: rule.violations.map(([e]) => describeEvent(e)) };
  }
  if (rule.notTested) return { id: rule.id, status: 'not-tested', reason: rule.notTested, checked: 0, violations: [], evidence: [] };
  if (rule.applies.length === 0) return { id: rule.id, status: 'not-tested', reason: rule.untested, checked: 0, violations: [], evidence: [] };
  return { id: rule.id, status: 'passed', reason: `held on ${rule.applies.length} recorded request(s)`, checked: rule.applies.length, violations: [], evidence: rule.applies.slice(0, 10).map(describeEvent) };
}

const isForm = (ct: string | null) => ct?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
const isJson = (ct: string | null) => ct?.split(';')[0]?.trim().toLowerCase() === 'application/json';

/** Events strictly between the marks `<probe>:start` and `<probe>:end`, or null when the probe set none. */
export function window(events: readonly GradedEvent[], probe: string): GradedEvent[] | null {
  const marks = events.filter((e): e is MarkEvent => e.type === 'mark');
  const start = marks.find((m) => m.label === `${probe}:start`);
  const end = marks.find((m) => m.label === `${probe}:end` && (!start || m.seq > start.seq));
  if (!start || !end) return null;
  return events.filter((e) => e.seq > start.seq && e.seq < end.seq);
}

/** Judges every CLIENT- requirement for one client. */
export function judgeClient(allEvents: readonly GradedEvent[], clientId: string, probes: ProbeReport = {}): ClientJudgement[] {
  const events = allEvents.filter((e) => e.clientId === clientId || e.type === 'mark');
  const authorize = events.filter((e): e is AuthorizeEvent => e.type === 'authorize');
  const redirects = events.filter((e): e is RedirectEvent => e.type === 'redirect');
  const token = events.filter((e): e is TokenEvent => e.type === 'token');
  const api = events.filter((e): e is ApiEvent => e.type === 'api');
  const codeGrants = token.filter((e) => e.grantType === 'authorization_code');
  const refreshes = token.filter((e) => e.grantType === 'refresh_token');
  const noTokenRequest = 'the application made no token request';
  const noApiCall = 'the application made no API call';
  const why = (p: { ran: boolean; why?: string } | undefined, fallback: string) => (p && !p.ran ? (p as { why: string }).why : fallback);

  const rules: Rule[] = [];
  rules.push({
    id: 'CLIENT-AUTHZ-REQUEST', applies: authorize, untested: 'the application sent no user to the authorization endpoint',
    violations: authorize.flatMap((e): Array<[GradedEvent, string]> => {
      const missing = [!e.hasClientId && 'client_id', !e.hasRedirectUri && 'redirect_uri', !e.hasState && 'state'].filter(Boolean);
      return missing.length ? [[e, `no ${missing.join(', ')}`]] : [];
    }),
  });

  const tampered = probes.tamperedState;
  const tamperedExchanges = tampered?.ran ? codeGrants.filter((e) => e.codeFp === tampered.codeFp) : [];
  rules.push({
    id: 'CLIENT-STATE-CHECKED', applies: tampered?.ran ? [...redirects.filter((r) => r.codeFp === tampered.codeFp)] : [],
    untested: 'the tampered-state probe did not run',
    notTested: tampered?.ran ? null : why(tampered, 'the tampered-state probe did not run: the profile names no connectUrl'),
    violations: tamperedExchanges.map((e) => [e, 'the code of a redirect whose state had been changed was exchanged']),
  });

  const issuedCodes = new Map(redirects.filter((r) => r.codeFp).map((r) => [r.codeFp!, r]));
  const denialWindow = probes.denial?.ran ? window(allEvents, 'denial') : null;
  const afterDenial = (denialWindow ?? []).filter((e): e is TokenEvent => e.type === 'token' && e.grantType === 'authorization_code' && e.clientId === clientId);
  const denialRan = probes.denial?.ran === true && denialWindow !== null;
  rules.push({
    id: 'CLIENT-CODE-FROM-REDIRECT', applies: [...codeGrants, ...(denialRan ? redirects.filter((r) => r.denied) : [])],
    untested: `the application exchanged no code${probes.denial && !probes.denial.ran ? ` and the denial probe did not run: ${probes.denial.why}` : ''}`,
    violations: [
      ...codeGrants.flatMap((e): Array<[GradedEvent, string]> => {
        if (!e.codeFp) return [[e, 'a code exchange without a code']];
        const issued = issuedCodes.get(e.codeFp);
        return !issued || issued.endTick > e.startTick ? [[e, 'a code no redirect had carried was exchanged']] : [];
      }),
      ...afterDenial.map((e): [GradedEvent, string] => [e, 'a code was exchanged after the user cancelled (access_denied)']),
    ].filter((v, i, all) => all.findIndex((w) => w[0] === v[0]) === i),
  });

  const seenCodes = new Set<string>();
  rules.push({
    id: 'CLIENT-CODE-ONCE', applies: codeGrants, untested: 'the application exchanged no code',
    violations: codeGrants.flatMap((e): Array<[GradedEvent, string]> => {
      if (!e.codeFp) return [];
      if (seenCodes.has(e.codeFp)) return [[e, 'the same code was presented again']];
      seenCodes.add(e.codeFp);
      return [];
    }),
  });

  rules.push({
    id: 'CLIENT-TOKEN-FORM-POST', applies: token, untested: noTokenRequest,
    violations: token.flatMap((e): Array<[GradedEvent, string]> => {
      const wrong = [e.method !== 'POST' && `method ${e.method}`, !isForm(e.contentType) && `content-type ${e.contentType ?? 'missing'}`].filter(Boolean);
      return wrong.length ? [[e, `not a form POST (${wrong.join(', ')})`]] : [];
    }),
  });
  rules.push({
    id: 'CLIENT-TOKEN-BODY-FIELDS', applies: token, untested: noTokenRequest,
    violations: token.flatMap((e): Array<[GradedEvent, string]> => {
      const missing = ['client_id', 'client_secret', 'grant_type'].filter((f) => !e.bodyFields.includes(f));
      return missing.length ? [[e, `not in the form body: ${missing.join(', ')}`]] : [];
    }),
  });
  rules.push({
    id: 'CLIENT-TOKEN-NO-BASIC', applies: token, untested: noTokenRequest,
    violations: token.filter((e) => e.basicHeader).map((e) => [e, 'an Authorization: Basic header on a token request']),
  });
  const carriers = events.filter((e): e is AuthorizeEvent | TokenEvent | ApiEvent => e.type === 'authorize' || e.type === 'token' || e.type === 'api');
  rules.push({
    id: 'CLIENT-SECRET-ONLY-IN-FORM', applies: carriers, untested: 'the application made no request',
    violations: carriers.filter((e) => e.secretIn.length > 0).map((e) => [e, `the client secret was sent in: ${e.secretIn.join(', ')}`]),
  });

  // The refresh chain: tokens issued, redeemed (200), refused (400).
  const issuedRefresh = new Map<string, TokenEvent>();
  const redeemed = new Map<string, TokenEvent>();
  const refused = new Map<string, TokenEvent>();
  const single: Array<[GradedEvent, string]> = [];
  const latest: Array<[GradedEvent, string]> = [];
  const retry: Array<[GradedEvent, string]> = [];
  for (const e of token) {
    if (e.grantType === 'refresh_token') {
      const fp = e.refreshFp;
      if (!fp) latest.push([e, 'a refresh without a refresh_token']);
      else {
        const spent = redeemed.get(fp);
        if (spent && spent.endTick < e.startTick) single.push([e, `a refresh token redeemed in #${spent.seq} was presented again`]);
        const issued = issuedRefresh.get(fp);
        if (!issued) latest.push([e, 'a refresh token the service never issued to this client (or not yet) was presented']);
        else if (spent) latest.push([e, `not the latest refresh token: #${spent.seq} had replaced it`]);
        const no = refused.get(fp);
        if (no && no.endTick < e.startTick) retry.push([e, `a refresh token refused with ${no.status} in #${no.seq} was presented again`]);
        if (e.status === 200) redeemed.set(fp, e);
        else if (e.status === 400 && !refused.has(fp)) refused.set(fp, e);
      }
    }
    if (e.issuedRefreshFp) issuedRefresh.set(e.issuedRefreshFp, e);
  }
  const noRefresh = 'the application never refreshed';
  rules.push({ id: 'CLIENT-REFRESH-SINGLE-USE', applies: refreshes, untested: noRefresh, violations: single });
  rules.push({ id: 'CLIENT-REFRESH-STORE-NEW', applies: refreshes, untested: noRefresh, violations: latest });
  const refusedRefreshes = refreshes.filter((e) => e.status === 400);
  rules.push({
    id: 'CLIENT-REFRESH-NO-RETRY', applies: refusedRefreshes,
    untested: `no refresh of the application was refused${probes.refreshRefused && !probes.refreshRefused.ran ? ` (the refused-refresh probe did not run: ${probes.refreshRefused.why})` : ''}`,
    violations: retry,
  });

  rules.push({
    id: 'CLIENT-API-KEY-HEADER', applies: api, untested: noApiCall,
    violations: api.filter((e) => e.apiKey === 'missing' || e.apiKey === 'wrong').map((e) => [e, `x-api-key ${e.apiKey === 'missing' ? 'missing' : 'is not the credential\'s API key'}`]),
  });
  rules.push({
    id: 'CLIENT-API-ACCESS-TOKEN-HEADER', applies: api, untested: noApiCall,
    violations: api.filter((e) => e.accessToken === 'missing').map((e) => [e, 'no x-access-token']),
  });
  rules.push({
    id: 'CLIENT-API-CONTENT-TYPE', applies: api, untested: noApiCall,
    violations: api.filter((e) => !isJson(e.contentType)).map((e) => [e, `content-type ${e.contentType ?? 'missing'}`]),
  });
  rules.push({
    id: 'CLIENT-API-HEADERS-NOT-ENCODED', applies: api, untested: noApiCall,
    violations: api.filter((e) => e.apiKey === 'url-encoded' || e.accessToken === 'url-encoded')
      .map((e) => [e, `URL-encoded: ${[e.apiKey === 'url-encoded' && 'x-api-key', e.accessToken === 'url-encoded' && 'x-access-token'].filter(Boolean).join(', ')}`]),
  });

  // Rotation: a token whose answer carried a successor, presented again after that answer arrived.
  const successors = api.filter((e) => e.rotatedFp && e.accessFp);
  const stale = api.flatMap((e): Array<[GradedEvent, string]> => {
    const replaced = successors.find((s) => s.accessFp === e.accessFp && s.endTick < e.startTick && s !== e);
    return replaced ? [[e, `an access token replaced by the x-access-token of #${replaced.seq} was presented again`]] : [];
  });
  const rotationChecked = api.filter((e) => successors.some((s) => s.endTick < e.startTick));
  rules.push({ id: 'CLIENT-ADOPT-NEW-ACCESS-TOKEN', applies: rotationChecked, untested: 'no API call followed an answer that carried a new x-access-token', violations: stale });

  // 401: the refused token is not presented again; in the probe's window, authorization follows.
  const refused401 = api.filter((e) => e.status === 401);
  const reauth: Array<[GradedEvent, string]> = [];
  for (const e of refused401) {
    const again = api.find((a) => a.accessFp === e.accessFp && a.startTick > e.endTick);
    if (e.accessFp && again) reauth.push([again, `the access token refused with 401 in #${e.seq} was presented again`]);
  }
  const probeWindow = probes.api401?.ran ? window(allEvents, 'api-401') : null;
  if (probeWindow) {
    const hit = probeWindow.find((e): e is ApiEvent => e.type === 'api' && e.clientId === clientId && e.status === 401);
    const next = hit && probeWindow.find((e) => e.type === 'authorize' && e.clientId === clientId && e.startTick > hit.endTick);
    if (hit && !next) reauth.push([hit, 'after this 401 the user was not sent through authorization again']);
  }
  rules.push({
    id: 'CLIENT-REAUTHORIZE-ON-401', applies: refused401,
    untested: `no API call of the application was answered 401${probes.api401 && !probes.api401.ran ? ` (the 401 probe did not run: ${probes.api401.why})` : ''}`,
    violations: reauth,
  });

  const registrations = api.filter((e) => e.registration);
  const deletes = api.filter((e) => e.method === 'DELETE' && e.route.startsWith('/webhook/'));
  const namingClient = [...registrations.filter((e) => e.registration!.clientIdOwn !== null), ...deletes.filter((e) => e.deleteClientIdOwn !== null)];
  rules.push({
    id: 'CLIENT-WEBHOOK-CLIENT-ID', applies: namingClient, untested: 'the application registered or deleted no webhook naming a clientID',
    violations: namingClient.filter((e) => e.registration?.clientIdOwn === false || e.deleteClientIdOwn === false).map((e) => [e, 'a clientID that is not the application\'s own client_id']),
  });
  rules.push({
    id: 'CLIENT-WEBHOOK-GROUPS', applies: registrations, untested: 'the application registered no webhook',
    violations: registrations.flatMap((e): Array<[GradedEvent, string]> => {
      const reg = e.registration!;
      const valid = reg.kind === 'user' ? USER_GROUPS : LOCK_GROUPS;
      const bad = reg.groups.filter((g) => !valid.includes(g));
      return bad.length ? [[e, `${reg.kind} registration asks for groups that are not ${reg.kind} groups: ${bad.join(', ')}`]] : [];
    }),
  });
  rules.push({
    id: 'CLIENT-DELETE-NO-BODY', applies: deletes, untested: 'the application deleted no webhook registration',
    violations: deletes.filter((e) => e.hasBody).map((e) => [e, 'a DELETE with a body']),
  });

  return rules.map(settle);
}
