/**
 * The rules of the authorization code flow, as the application plays it: the
 * authorization request (parameters, the registered redirect_uri, URL-encoding),
 * the state check (the state probe family), and which codes it exchanges.
 */
import type { AuthorizeEvent, GradedEvent, RedirectEvent, TokenEvent } from '../../../mock/grading/recording.js';
import { REACHED_AS_OTHER_NAME, grantOf, whyNot, window, type ProbeReport, type Rule, type StateProbe, type Violation } from './model.js';

const PARAMS = ['client_id', 'redirect_uri', 'state'] as const;
const PARTS = ['scheme', 'host', 'port', 'path', 'query', 'case'];
/** The state probes of CLIENT-STATE-SESSION-BOUND: the state is one the application sent, the browser another. */
const BINDING: readonly string[] = ['other-session', 'no-cookie'];

export function authzRules(events: readonly GradedEvent[], allEvents: readonly GradedEvent[], clientId: string, probes: ProbeReport): Rule[] {
  const authorize = events.filter((e): e is AuthorizeEvent => e.type === 'authorize');
  const redirects = events.filter((e): e is RedirectEvent => e.type === 'redirect');
  const codeGrants = events.filter((e): e is TokenEvent => e.type === 'token' && grantOf(e) === 'authorization_code');
  const rules: Rule[] = [];
  const noAuthz = 'the application sent no user to the authorization endpoint';

  rules.push({
    id: 'CLIENT-AUTHZ-REQUEST', applies: authorize, untested: noAuthz,
    sliceOf: { 'authz-param': () => PARAMS },
    violations: authorize.flatMap((e): Violation[] => {
      const has = { client_id: e.hasClientId, redirect_uri: e.hasRedirectUri, state: e.hasState };
      return PARAMS.filter((p) => !has[p]).map((p): Violation => [e, `no ${p}`, { 'authz-param': p }]);
    }),
  });

  // The reached-as probe's window: the authorization requests of a browser that reached the application under another name
  // (also when the probe then stopped: a browser that met the mock's refusal of the redirect_uri did reach the request).
  const otherNamed = new Set(window(allEvents, REACHED_AS_OTHER_NAME) ?? []);
  const reachedAs = (e: GradedEvent) => (otherNamed.has(e) ? 'other-name' : 'configured');
  const withUri = authorize.filter((e) => e.hasRedirectUri && e.redirectUriParts !== undefined);
  const under = (e: GradedEvent) => (!otherNamed.has(e) ? '' : probes.reachedAs?.ran ? ` (the browser reached the application as ${probes.reachedAs.name})` : ' (the browser reached the application under another loopback name)');
  rules.push({
    id: 'CLIENT-AUTHZ-REDIRECT-URI', applies: withUri, untested: 'the application sent no authorization request with a redirect_uri',
    sliceOf: { 'redirect-uri-part': () => PARTS, 'reached-as': reachedAs },
    untestedSlice: (dim, value) => {
      if (dim !== 'reached-as' || value !== 'other-name') return `the application sent no authorization request with a redirect_uri (${dim}=${value})`;
      const p = probes.reachedAs;
      return p && !p.ran ? `the reached-as probe did not run: ${p.why}` : 'the browser that reached the application under another name was sent to no authorization request with a redirect_uri';
    },
    violations: withUri.flatMap((e) => (e.redirectUriParts ?? []).map((part): Violation => [e, `the redirect_uri is not the registered one (its ${part} differs)${under(e)}`, { 'redirect-uri-part': part, 'reached-as': reachedAs(e) }])),
  });

  const encodedChecked = authorize.filter((e) => e.unencoded !== undefined);
  rules.push({
    id: 'CLIENT-AUTHZ-URL-ENCODED', applies: encodedChecked, untested: 'the application sent no authorization request',
    sliceOf: { 'authz-param': (e) => (e.type === 'authorize' && e.hasRedirectUri ? ['redirect_uri'] : []) },
    violations: encodedChecked.flatMap((e) => (e.unencoded ?? []).map((p): Violation => [e, `${p} is not URL-encoded`, { 'authz-param': p }])),
  });

  // The state family: each probe brought the browser back with a code the mock issued and a state not the one in progress.
  const stateProbes = (probes.state ?? []).filter((p) => !BINDING.includes(p.tamper) && p.tamper !== 'replayed');
  const byCode = new Map<string, StateProbe & { ran: true }>();
  for (const p of stateProbes) if (p.ran) byCode.set(p.codeFp, p);
  const probeOf = (e: GradedEvent) => (e.type === 'redirect' || e.type === 'token') && e.codeFp ? byCode.get(e.codeFp) ?? null : null;
  const firstNotRun = stateProbes.find((p) => !p.ran);
  rules.push({
    id: 'CLIENT-STATE-CHECKED',
    applies: redirects.filter((r) => probeOf(r) !== null),
    untested: 'no state probe ran',
    notTested: byCode.size > 0 ? null : whyNot(firstNotRun ?? probes.state?.[0], 'the state probes did not run: the profile names no connectUrl'),
    sliceOf: { 'state-tamper': (e) => probeOf(e)?.tamper ?? null, 'flow-end': (e) => probeOf(e)?.flowEnd ?? null, 'arrives-in': (e) => arrival(probeOf(e)) },
    untestedSlice: (dim, value) => {
      const of = (x: StateProbe) => (dim === 'state-tamper' ? x.tamper : dim === 'flow-end' ? x.flowEnd : arrival(x));
      const p = stateProbes.find((x) => of(x) === value && !x.ran);
      return p && !p.ran ? `the ${p.tamper} state probe after ${p.flowEnd}${arrival(p) === 'no-cookie' ? ' in a browser without the cookie' : ''} did not run: ${p.why}` : `no state probe covered ${dim}=${value}`;
    },
    violations: codeGrants.filter((e) => probeOf(e) !== null).map((e): Violation => {
      const p = probeOf(e)!;
      return [e, `the code of a redirect whose state was ${describeState(p)} (after ${p.flowEnd}${arrival(p) === 'no-cookie' ? ', in a browser without the application\'s cookie' : ''}) was exchanged`];
    }),
  });

  // The binding probes: a state the application sent, brought back by another browser (CLIENT-STATE-SESSION-BOUND, SHOULD).
  const bindings = (probes.state ?? []).filter((p) => BINDING.includes(p.tamper));
  const bindingByCode = new Map<string, StateProbe & { ran: true }>();
  for (const p of bindings) if (p.ran) bindingByCode.set(p.codeFp, p);
  const bindingOf = (e: GradedEvent) => (e.type === 'redirect' || e.type === 'token') && e.codeFp ? bindingByCode.get(e.codeFp) ?? null : null;
  rules.push({
    id: 'CLIENT-STATE-SESSION-BOUND',
    applies: redirects.filter((r) => bindingOf(r) !== null),
    untested: 'no session-binding probe ran',
    notTested: bindingByCode.size > 0 ? null : whyNot(bindings.find((p) => !p.ran), 'the session-binding probes did not run: the profile names no connectUrl'),
    sliceOf: { 'session-binding': (e) => bindingOf(e)?.tamper ?? null },
    untestedSlice: (_dim, value) => {
      const p = bindings.find((x) => x.tamper === value && !x.ran);
      return p && !p.ran ? `the ${value} probe did not run: ${p.why}` : `no ${value} probe ran`;
    },
    violations: codeGrants.filter((e) => bindingOf(e) !== null).map((e): Violation => [e, `the code of a redirect whose state was ${DESCRIBE[bindingOf(e)!.tamper] ?? bindingOf(e)!.tamper} was exchanged`]),
  });

  // The replayed probes: the state of a flow that had ended, with a fresh code (CLIENT-STATE-ONE-USE).
  const replays = (probes.state ?? []).filter((p) => p.tamper === 'replayed');
  const replayByCode = new Map<string, StateProbe & { ran: true }>();
  for (const p of replays) if (p.ran) replayByCode.set(p.codeFp, p);
  const replayOf = (e: GradedEvent) => (e.type === 'redirect' || e.type === 'token') && e.codeFp ? replayByCode.get(e.codeFp) ?? null : null;
  rules.push({
    id: 'CLIENT-STATE-ONE-USE',
    applies: redirects.filter((r) => replayOf(r) !== null),
    untested: 'no replayed-state probe ran',
    notTested: replayByCode.size > 0 ? null : whyNot(replays.find((p) => !p.ran), 'the replayed-state probes did not run: the profile names no connectUrl'),
    sliceOf: { 'flow-end': (e) => replayOf(e)?.flowEnd ?? null },
    untestedSlice: (_dim, value) => {
      const p = replays.find((x) => x.flowEnd === value && !x.ran);
      return p && !p.ran ? `the replayed-state probe after ${value} did not run: ${p.why}` : `no replayed-state probe after ${value}`;
    },
    violations: codeGrants.filter((e) => replayOf(e) !== null).map((e): Violation => [e, `a fresh code that came back with the state of a flow that had ended (by ${replayOf(e)!.flowEnd}) was exchanged`]),
  });

  // The cancellation family: a cancellation whose state does not match must not end the sign-in in progress
  // when an approval redirect with such a state does not (the application's own answer to a wrong state is the baseline).
  const cancels = probes.cancellation ?? [];
  const exchanged = (fp: string) => codeGrants.some((e) => e.codeFp === fp);
  const redirectOf = (fp: string) => redirects.find((r) => r.codeFp === fp) ?? null;
  const cancelApplies: GradedEvent[] = [];
  const cancelTamper = new Map<GradedEvent, string>();
  const cancelViolations: Violation[] = [];
  const cancelUntested = new Map<string, string>();
  for (const p of cancels) {
    if (!p.ran) continue;
    const genuine = redirectOf(p.cancellationGenuineFp);
    const wrong = describeState(p);
    if (!genuine) cancelUntested.set(p.tamper, 'the mock recorded no redirect of the probe\'s flow');
    else if (exchanged(p.foreignFp)) cancelUntested.set(p.tamper, `the application exchanged the code of an approval redirect whose state was ${wrong} (CLIENT-STATE-CHECKED judges that), so its answer to a wrong state is no baseline`);
    else if (!exchanged(p.approvalGenuineFp)) cancelUntested.set(p.tamper, `after an approval redirect whose state was ${wrong} the application gave up the sign-in in progress (its own redirect was refused): a cancellation it did not check cannot be told from one it did`);
    else {
      cancelApplies.push(genuine);
      cancelTamper.set(genuine, p.tamper);
      if (!exchanged(p.cancellationGenuineFp)) cancelViolations.push([genuine, `after a cancellation redirect whose state was ${wrong}, the sign-in in progress was given up (its own redirect was refused), though after an approval redirect with such a state it was kept: the cancellation was taken for the application's own without its state checked`]);
    }
  }
  const firstCancelNotRun = cancels.find((p) => !p.ran);
  rules.push({
    id: 'CLIENT-CANCELLATION-STATE-CHECKED',
    applies: cancelApplies,
    untested: cancels.some((p) => p.ran) ? `no cancellation probe could be judged: ${[...cancelUntested.values()][0] ?? 'none ran'}` : 'no cancellation probe ran',
    notTested: cancels.some((p) => p.ran) ? null : whyNot(firstCancelNotRun, 'the cancellation probes did not run: the profile names no connectUrl'),
    sliceOf: { 'state-tamper': (e) => cancelTamper.get(e) ?? null },
    untestedSlice: (_dim, value) => {
      const p = cancels.find((x) => x.tamper === value);
      return p && !p.ran ? `the ${value} cancellation probe did not run: ${p.why}` : cancelUntested.get(value) ?? `no cancellation probe with a state ${DESCRIBE[value] ?? value}`;
    },
    violations: cancelViolations,
  });

  const issuedCodes = new Map(redirects.filter((r) => r.codeFp).map((r) => [r.codeFp!, r]));
  const denialWindow = probes.denial?.ran ? window(allEvents, 'denial') : null;
  const afterDenial = (denialWindow ?? []).filter((e): e is TokenEvent => e.type === 'token' && grantOf(e) === 'authorization_code' && e.clientId === clientId);
  const denialRan = probes.denial?.ran === true && denialWindow !== null;
  rules.push({
    id: 'CLIENT-CODE-FROM-REDIRECT', applies: [...codeGrants, ...(denialRan ? redirects.filter((r) => r.denied) : [])],
    untested: `the application exchanged no code${probes.denial && !probes.denial.ran ? ` and the denial probe did not run: ${probes.denial.why}` : ''}`,
    violations: [
      ...codeGrants.flatMap((e): Violation[] => {
        if (!e.codeFp) return [[e, 'a code exchange without a code']];
        const issued = issuedCodes.get(e.codeFp);
        return !issued || issued.endTick > e.startTick ? [[e, 'a code no redirect had carried was exchanged']] : [];
      }),
      ...afterDenial.map((e): Violation => [e, 'a code was exchanged after the user cancelled (access_denied)']),
    ].filter((v, i, all) => all.findIndex((w) => w[0] === v[0]) === i),
  });

  // The reload probe: the callback again, same code and state; its mark stands for the visit the rule applies to.
  const reloadWindow = probes.reload?.ran ? window(allEvents, 'reload-callback') : null;
  const reloadMark = reloadWindow ? allEvents.find((e) => e.type === 'mark' && e.label === 'reload-callback:start') ?? null : null;
  const reloaded = new Set(reloadWindow ?? []);
  const seenCodes = new Set<string>();
  rules.push({
    id: 'CLIENT-CODE-ONCE', applies: [...codeGrants, ...(reloadMark ? [reloadMark] : [])], untested: 'the application exchanged no code',
    sliceOf: { 'callback-visit': (e) => (e === reloadMark || reloaded.has(e) ? 'reloaded' : e.type === 'token' ? 'first' : null) },
    untestedSlice: (_dim, value) => (value === 'reloaded'
      ? `the reload probe did not run${probes.reload && !probes.reload.ran ? `: ${probes.reload.why}` : ''}`
      : 'the application exchanged no code'),
    violations: codeGrants.flatMap((e): Violation[] => {
      if (!e.codeFp) return [];
      if (seenCodes.has(e.codeFp)) return [[e, 'the same code was presented again']];
      seenCodes.add(e.codeFp);
      return [];
    }),
  });
  return rules;
}

/** Where a state probe's redirect arrived (a probe of the domain in a browser without a cookie, or the flow's own). */
function arrival(p: StateProbe | null): string | null {
  return p ? p.arrivesIn ?? 'flow-browser' : null;
}

/** A probe's state in words, with the position a drawn alteration changed (the run's seed replays it). */
function describeState(p: { tamper: string; ran: boolean; position?: number }): string {
  const at = p.ran && typeof p.position === 'number' ? ` (character ${p.position + 1})` : '';
  return `${DESCRIBE[p.tamper] ?? p.tamper}${at}`;
}

const DESCRIBE: Record<string, string> = {
  suffix: 'the real one with characters added at the end',
  prefix: 'the real one with characters added at the start',
  truncated: 'the real one cut short',
  empty: 'empty',
  missing: 'missing',
  forged: 'a forged value of the same length and alphabet',
  'altered-first': 'the real one with its first character changed',
  'altered-drawn': 'the real one with one character inside it changed',
  'altered-last': 'the real one with its last character changed',
  case: 'the real one in another letter case',
  'other-session': 'the valid state of another session',
  'no-cookie': 'the right one, in a browser without the application\'s session cookie',
  replayed: 'that of a flow that had already ended',
};
