/**
 * The rules of the application's token requests and of its refresh chain: form
 * POSTs with the credentials in the body on every grant, the secret nowhere else
 * on any kind of request, and every link of a refresh chain presenting the latest
 * refresh token, once (position: the first link, the code grant's token; later
 * links, those a refresh issued).
 */
import type { ApiEvent, AuthorizeEvent, GradedEvent, TokenEvent } from '../../../mock/grading/recording.js';
import { GRANTS, browserAnswer, grantOf, isForm, sessionStopped, window, type ProbeReport, type Rule, type Violation } from './model.js';

export function tokenRules(events: readonly GradedEvent[], probes: ProbeReport, clientId = ''): Rule[] {
  const token = events.filter((e): e is TokenEvent => e.type === 'token');
  // A refresh is judged as one whatever its grant_type says (grant_type=refresh is a refresh with a wrong value).
  const refreshes = token.filter((e) => grantOf(e) === 'refresh_token');
  const noTokenRequest = 'the application made no token request';
  const byGrant = { grant: grantOf };
  const grantUntested = (_dim: string, grant: string) => `the application made no token request with grant_type=${grant}`;
  const rules: Rule[] = [];

  rules.push({
    id: 'CLIENT-TOKEN-FORM-POST', applies: token, untested: noTokenRequest, sliceOf: byGrant, untestedSlice: grantUntested,
    violations: token.flatMap((e): Violation[] => {
      const wrong = [e.method !== 'POST' && `method ${e.method}`, !isForm(e.contentType) && `content-type ${e.contentType ?? 'missing'}`].filter(Boolean);
      if (wrong.length) return [[e, `not a form POST (${wrong.join(', ')})`]];
      // "URL-encoded body": the values arrive as sent (the graded secret, codes and refresh tokens hold "+", "&", "=", "/").
      if (e.malformed) return [[e, 'the form body does not decode (broken percent-encoding): not a URL-encoded body']];
      return e.encodingErrors?.length ? [[e, `the form body is not URL-encoded: ${e.encodingErrors.join(', ')} arrived altered`]] : [];
    }),
  });
  rules.push({
    id: 'CLIENT-TOKEN-BODY-FIELDS', applies: token, untested: noTokenRequest, sliceOf: byGrant, untestedSlice: grantUntested,
    violations: token.flatMap((e): Violation[] => {
      // "Required when": always client_id, client_secret, grant_type; code with authorization_code; refresh_token with refresh_token.
      const perGrant = e.grantType === 'authorization_code' ? ['code'] : e.grantType === 'refresh_token' ? ['refresh_token'] : [];
      const missing = ['client_id', 'client_secret', 'grant_type', ...perGrant].filter((f) => !e.bodyFields.includes(f));
      if (missing.length) return [[e, `not in the form body: ${missing.join(', ')}`]];
      // Values, not presence: grant_type one of the spec's and the grant the request makes; the credentials the application's own.
      const wrong: string[] = [];
      if (e.grantType !== null && !GRANTS.includes(e.grantType)) wrong.push(`grant_type is not one of authorization_code, client_credentials, refresh_token`);
      else if (e.grantType === 'authorization_code' && !e.codeFp && e.refreshFp) wrong.push('grant_type=authorization_code on a request carrying refresh_token');
      else if (e.grantType === 'refresh_token' && !e.refreshFp && e.codeFp) wrong.push('grant_type=refresh_token on a request carrying code');
      if (e.clientIdValue === 'wrong') wrong.push('client_id is not the application\'s client ID');
      if (e.secretValue === 'wrong') wrong.push('client_secret is not the application\'s client secret');
      return wrong.length ? [[e, wrong.join('; ')]] : [];
    }),
  });
  // RFC 6749 §3.2 "Request and response parameters MUST NOT be included more than once.": the fields of the form body.
  const forms = token.filter((e) => e.repeated !== undefined);
  rules.push({
    id: 'CLIENT-TOKEN-FIELD-ONCE', applies: forms, untested: 'the application made no token request whose form fields were recorded', sliceOf: byGrant, untestedSlice: grantUntested,
    violations: forms.filter((e) => e.repeated!.length > 0).map((e): Violation => [e, `given more than once in the form body: ${e.repeated!.join(', ')}`]),
  });
  rules.push({
    id: 'CLIENT-TOKEN-NO-BASIC', applies: token, untested: noTokenRequest, sliceOf: byGrant, untestedSlice: grantUntested,
    violations: token.filter((e) => e.basicHeader).map((e): Violation => [e, 'an Authorization: Basic header on a token request']),
  });

  const carriers = events.filter((e): e is AuthorizeEvent | TokenEvent | ApiEvent => e.type === 'authorize' || e.type === 'token' || e.type === 'api');
  // What the application sent to the probes' browser: one line for the answers scanned, one per answer holding the secret.
  const scan = probes.browser?.ran ? probes.browser : null;
  const scanned = scan && scan.responses > 0 ? [browserAnswer(clientId, `${scan.responses} answer(s) scanned`)] : [];
  const leaked = (scan?.secretAt ?? []).map((where) => browserAnswer(clientId, where));
  const kind = (e: GradedEvent) => (e.type === 'authorize' ? 'authorization' : e.type === 'token' || e.type === 'api' ? e.type : e.type === 'mark' && e.seq === 0 ? 'browser' : null);
  rules.push({
    id: 'CLIENT-SECRET-ONLY-IN-FORM', applies: [...carriers, ...scanned], untested: 'the application made no request',
    sliceOf: { 'request-kind': kind },
    untestedSlice: (_dim, value) => (value === 'browser'
      ? `no answer of the application to the browser was scanned${probes.browser && !probes.browser.ran ? ` (${probes.browser.why})` : ''}`
      : `the application made no ${value === 'api' ? 'API call' : `${value} request`}`),
    violations: [
      ...carriers.filter((e) => e.secretIn.length > 0).map((e): Violation => [e, `the client secret was sent in: ${e.secretIn.join(', ')}`]),
      ...leaked.map((e): Violation => [e, 'the client secret was sent to the browser']),
    ],
  });
  rules.push({
    id: 'CLIENT-API-KEY-NOT-TO-BROWSER', applies: scanned,
    untested: `no answer of the application to the browser was scanned${probes.browser && !probes.browser.ran ? ` (${probes.browser.why})` : ''}`,
    violations: (scan?.apiKeyAt ?? []).map((where): Violation => [browserAnswer(clientId, where), 'the API key was sent to the browser']),
  });

  // The refresh chain: tokens issued (by which request), redeemed (200), refused (400).
  const issuedBy = new Map<string, TokenEvent>();
  const redeemed = new Map<string, TokenEvent>();
  const refused = new Map<string, TokenEvent>();
  const position = new Map<GradedEvent, string>();
  const single: Violation[] = [];
  const latest: Violation[] = [];
  const retry: Violation[] = [];
  let linksSinceCode = 0;
  for (const e of token) {
    if (grantOf(e) === 'authorization_code') linksSinceCode = 0;
    if (grantOf(e) === 'refresh_token') {
      const fp = e.refreshFp;
      const source = fp ? issuedBy.get(fp) : undefined;
      // The link: that of the token presented (issued by a code grant: the first), else by order since the last code grant.
      position.set(e, source ? (source.grantType === 'refresh_token' ? 'later' : 'first') : linksSinceCode === 0 ? 'first' : 'later');
      linksSinceCode += 1;
      if (!fp) latest.push([e, 'a refresh without a refresh_token']);
      else {
        const spent = redeemed.get(fp);
        if (spent && spent.endTick < e.startTick) single.push([e, `a refresh token redeemed in #${spent.seq} was presented again`]);
        const issued = issuedBy.get(fp);
        if (!issued || issued.issuedRefreshFp !== fp) latest.push([e, 'a refresh token the service never issued to this client (or not yet) was presented']);
        else if (spent) latest.push([e, `not the latest refresh token: #${spent.seq} had replaced it`]);
        const no = refused.get(fp);
        if (no && no.endTick < e.startTick) retry.push([e, `a refresh token refused with ${no.status} in #${no.seq} was presented again`]);
        if (e.status === 200) redeemed.set(fp, e);
        else if (e.status === 400 && !refused.has(fp)) refused.set(fp, e);
      }
    }
    if (e.issuedRefreshFp) issuedBy.set(e.issuedRefreshFp, e);
    if (e.issuedAccessFp && !issuedBy.has(e.issuedAccessFp)) issuedBy.set(e.issuedAccessFp, e);
  }
  const noRefresh = `the application never refreshed${sessionStopped(probes)}`; // the session's refresh chain
  const byPosition = { position: (e: GradedEvent) => position.get(e) ?? null };
  const positionUntested = (_dim: string, value: string) => (value === 'first'
    ? noRefresh
    : 'the application never refreshed with a refresh token a refresh had issued (a chain of at least two links)');
  rules.push({ id: 'CLIENT-REFRESH-SINGLE-USE', applies: refreshes, untested: noRefresh, violations: single, sliceOf: byPosition, untestedSlice: positionUntested });
  rules.push({ id: 'CLIENT-REFRESH-STORE-NEW', applies: refreshes, untested: noRefresh, violations: latest, sliceOf: byPosition, untestedSlice: positionUntested });
  const refusedRefreshes = refreshes.filter((e) => e.status === 400);
  rules.push({
    id: 'CLIENT-REFRESH-NO-RETRY', applies: refusedRefreshes,
    untested: `no refresh of the application was refused${probes.refreshRefused && !probes.refreshRefused.ran ? ` (the refused-refresh probe did not run: ${probes.refreshRefused.why})` : ''}`,
    violations: retry,
  });
  rules.push(refreshInFlightRule(events, probes, clientId));
  return rules;
}

/**
 * Two refreshes in flight at once (probes/timing.ts): no refresh token presented by both (one would be refused:
 * "valid for exactly one use"), and the user still signed in after them: the application's page, which called
 * the API before, calls it again with success.
 */
function refreshInFlightRule(events: readonly GradedEvent[], probes: ProbeReport, clientId: string): Rule {
  const id = 'CLIENT-REFRESH-IN-FLIGHT';
  const probe = probes.refreshInFlight;
  const notRun = `the double-submit probe did not run${probe && !probe.ran ? `: ${probe.why}` : ''}`;
  const during = probe?.ran ? window(events, 'refresh-in-flight') : null;
  if (!during) return { id, applies: [], untested: notRun, violations: [], notTested: notRun };
  const mine = (e: GradedEvent) => e.clientId === clientId;
  const inFlight = during.filter((e): e is TokenEvent => e.type === 'token' && mine(e) && grantOf(e) === 'refresh_token');
  const violations: Violation[] = [];
  const seen = new Map<string, TokenEvent>();
  for (const e of inFlight) {
    const first = e.refreshFp ? seen.get(e.refreshFp) : undefined;
    if (first) violations.push([e, `the refresh token of #${first.seq} was presented again by a second refresh in flight (a refresh token is valid for exactly one use: one of them is refused)`]);
    else if (e.refreshFp) seen.set(e.refreshFp, e);
  }
  const calledApi = (w: GradedEvent[] | null) => (w ?? []).some((e) => e.type === 'api' && mine(e) && e.status >= 200 && e.status < 300);
  const before = window(events, 'refresh-in-flight:before');
  const after = window(events, 'refresh-in-flight:after');
  let notTested: string | null = null;
  if (!calledApi(before)) notTested = 'the application\'s page made no successful API call while signed in, so whether the user stayed signed in after two refreshes cannot be seen';
  else if (!calledApi(after)) {
    const back = (after ?? []).find((e) => e.type === 'authorize' && mine(e));
    violations.push([back ?? inFlight.at(-1) ?? during[0] ?? browserAnswer(clientId, 'the page after the double submit'), 'after two refreshes in flight the application\'s page made no successful API call: the user was signed out']);
  }
  return {
    id, applies: inFlight, untested: 'the application made no refresh when its refresh address was requested twice at once',
    violations, notTested: violations.length ? null : inFlight.length ? notTested : null,
  };
}
