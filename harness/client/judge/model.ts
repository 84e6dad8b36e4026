/**
 * The shapes of the client judgement and the one way a rule is settled, overall
 * and slice by slice (harness/catalog/slices/client.ts): a rule lists the
 * requests it applies to, the violations, and how a request falls into each
 * declared slice; settle() makes the judgement of the requirement and of each
 * declared slice. Pure.
 */
import { declaredValues, slicesOf } from '../../catalog/slices/index.js';
import { clientEndpoint } from '../../catalog/slices/client.js';
import type { GradedEvent, MarkEvent } from '../../../mock/grading/recording.js';
import type { ContentScanReport } from '../drivers/content-scan.js';

export type ClientStatus = 'passed' | 'failed' | 'not-tested';

/** One declared slice of a requirement, judged. */
export interface ClientSliceJudgement {
  dim: string;
  value: string;
  status: ClientStatus;
  reason: string;
  checked: number;
  violations: string[];
}

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
  /** Each declared slice of the requirement (absent when it declares none). */
  slices?: ClientSliceJudgement[];
}

type Ran<T> = ({ ran: true } & T) | { ran: false; why: string };

/**
 * One probe of the state family: a redirect back whose state is not the one in progress, arriving in the
 * flow's browser or (arrivesIn `no-cookie`) in one without the application's cookie; `position` is the
 * character a drawn alteration changed (recorded: the run's seed replays it).
 */
export type StateProbe = { tamper: string; flowEnd: string; arrivesIn?: string } & Ran<{ codeFp: string; position?: number }>;
/**
 * One probe of the cancellation family: an approval redirect whose state was changed by `tamper` (with
 * another flow's code), then the flow's own redirect (`approvalGenuineFp`: does the sign-in in progress
 * survive a redirect whose state does not match?); and a cancellation redirect whose state was changed the
 * same way, then the flow's own redirect (`cancellationGenuineFp`: the same question for a cancellation).
 */
export type CancellationProbe = { tamper: string } & Ran<{ foreignFp: string; approvalGenuineFp: string; cancellationGenuineFp: string; position?: number }>;
/** One probe of the 401 family: the mock answers 401 to the application's first call of `endpoint`. */
export type Api401Probe = { endpoint: string } & Ran<{ hit?: boolean }>;

/** What the probes (probes/) did; a probe that could not run says why. */
export interface ProbeReport {
  /** The session family: sign in, the page, every action, the refresh chain (what the webhook and refresh rules are judged on). */
  session?: Ran<{ errorAnswers?: string[] }>;
  state?: StateProbe[];
  /** Cancellation redirects whose state does not match (CLIENT-CANCELLATION-STATE-CHECKED). */
  cancellation?: CancellationProbe[];
  denial?: Ran<object>;
  /** The 401 on the call the application's page makes, while browsing it: authorization must follow. */
  api401?: Ran<object>;
  /** The 401 on each kind of call. */
  api401Family?: Api401Probe[];
  /** The 401 at each point of a flow (marks api-401:<point>): after the sign-in, after a refresh, on a drawn call. */
  api401Points?: Array<{ point: string } & Ran<{ skip?: number }>>;
  /** The first API call after a refresh answered `status` (401, 500, 503), then a refresh again (marks failed-check:<status>). */
  failedCheck?: Array<{ status: number } & Ran<object>>;
  /** The token endpoint answering the code exchange or a refresh with `status` (302, 400, 500, 503) while the browser's content is scanned (marks token-error:<grant>:<status>). */
  tokenErrors?: Array<{ grant: string; status: number } & Ran<object>>;
  refreshRefused?: Ran<object>;
  /** Two refreshes in flight at once (a double submit): marks refresh-in-flight:before, refresh-in-flight, refresh-in-flight:after. */
  refreshInFlight?: Ran<{ answers?: number[] }>;
  /** The callback reloaded (marks reload-callback): the same code and state again in the same browser. */
  reload?: Ran<object>;
  /** The connect URL opened under another loopback name (marks reached-as:other-name): the authorization request it led to. */
  reachedAs?: Ran<{ name: string }>;
  /** The answers family: the application's next API write answered another 2xx (`status`), its body kept or none, with a new x-access-token. */
  answers?: Array<{ status: string; probe?: string; body?: string } & Ran<object>>;
  /** What the application sent to the probes' browser, scanned for the client secret and the API key. */
  browser?: Ran<ContentScanReport>;
}

/** The marks of the reached-as probe (probes/reached-as.ts): the browser reached the application under another name. */
export const REACHED_AS_OTHER_NAME = 'reached-as:other-name';

/** A violation: the request, what is wrong, and its slice when the request alone does not say it. */
export type Violation = [GradedEvent, string] | [GradedEvent, string, Record<string, string>];

export interface Rule {
  id: string;
  /** The requests the rule applies to; none → not tested with `untested`. */
  applies: GradedEvent[];
  untested: string;
  violations: Violation[];
  /** A reason the rule cannot be judged at all (a probe that did not run), taking precedence. */
  notTested?: string | null;
  /** Per dimension: the value(s) of a request (null: in no slice of it). */
  sliceOf?: Record<string, (e: GradedEvent) => string | readonly string[] | null>;
  /** Why a slice had no request (default: `untested` on that slice). */
  untestedSlice?: (dim: string, value: string) => string;
  /**
   * How many values the rule judged on the requests it applies to (a rule that judges values,
   * not presence, sets it): requests with none judged are no pass (judgedNothing says why).
   */
  judged?: number;
  judgedNothing?: string;
}

/** The grant of a token request: its grant_type when it is one of the spec's, else what its fields show (code, refresh_token). */
export const GRANTS: readonly string[] = ['authorization_code', 'client_credentials', 'refresh_token'];
export function grantOf(e: GradedEvent): string | null {
  if (e.type !== 'token') return null;
  if (e.grantType && GRANTS.includes(e.grantType)) return e.grantType;
  if (e.codeFp) return 'authorization_code';
  if (e.refreshFp) return 'refresh_token';
  return null;
}

const short = (fp: string | null) => (fp ? `#${fp.slice(0, 8)}` : '—');

/** The spec's name of a recorded API call (the `endpoint` dimension). */
export function endpointOf(e: GradedEvent): string | null {
  return e.type === 'api' ? clientEndpoint(e.method, e.route) : null;
}

/** What the application sent to the browser, as a line of evidence (not a request the mock recorded: seq 0). */
export function browserAnswer(clientId: string, label: string): MarkEvent {
  return { type: 'mark', seq: 0, at: 0, startTick: 0, endTick: 0, clientId, label: `the application's answer to the browser: ${label}` };
}

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
      return e.seq === 0 ? e.label : `#${e.seq} probe mark: ${e.label}`;
  }
}

function lines(violations: readonly Violation[]): string[] {
  const out = violations.slice(0, 20).map(([e, why]) => `${why}: ${describeEvent(e)}`);
  return violations.length > 20 ? [...out, `… and ${violations.length - 20} more`] : out;
}

function inSlice(values: string | readonly string[] | null, value: string): boolean {
  return values === null ? false : typeof values === 'string' ? values === value : values.includes(value);
}

function settleSlices(rule: Rule): ClientSliceJudgement[] | undefined {
  if (slicesOf(rule.id).length === 0) return undefined;
  const dims = [...new Set(slicesOf(rule.id).map((s) => s.dim))];
  return dims.flatMap((dim) => declaredValues(rule.id, dim).map((value): ClientSliceJudgement => {
    const of = rule.sliceOf?.[dim];
    const applies = of ? rule.applies.filter((e) => inSlice(of(e), value)) : [];
    const broken = rule.violations.filter((v) => (v[2] ? v[2][dim] === value : !!of && inSlice(of(v[0]), value)));
    if (broken.length) return { dim, value, status: 'failed', reason: lines(broken).join('\n'), checked: applies.length, violations: lines(broken) };
    if (rule.notTested) return { dim, value, status: 'not-tested', reason: rule.notTested, checked: 0, violations: [] };
    if (applies.length === 0) {
      const why = rule.untestedSlice?.(dim, value) ?? `${rule.untested} (${dim}=${value})`;
      return { dim, value, status: 'not-tested', reason: why, checked: 0, violations: [] };
    }
    return { dim, value, status: 'passed', reason: `held on ${applies.length} recorded request(s)`, checked: applies.length, violations: [] };
  }));
}

export function settle(rule: Rule): ClientJudgement {
  const slices = settleSlices(rule);
  const withSlices = slices ? { slices } : {};
  if (rule.violations.length > 0) {
    const out = lines(rule.violations);
    return { id: rule.id, status: 'failed', reason: out.join('\n'), checked: rule.applies.length, violations: out, evidence: rule.violations.map(([e]) => describeEvent(e)), ...withSlices };
  }
  if (rule.notTested) return { id: rule.id, status: 'not-tested', reason: rule.notTested, checked: 0, violations: [], evidence: [], ...withSlices };
  if (rule.applies.length === 0) return { id: rule.id, status: 'not-tested', reason: rule.untested, checked: 0, violations: [], evidence: [], ...withSlices };
  if (rule.judged === 0) {
    // A check that saw no value is no pass: the requests were there, but nothing in them was judged.
    const why = `${rule.applies.length} request(s) applied, but no value of them was judged: ${rule.judgedNothing ?? 'nothing to compare'}`;
    const held = slices?.map((s): ClientSliceJudgement => (s.status === 'passed' ? { ...s, status: 'not-tested', reason: why, checked: 0 } : s));
    return { id: rule.id, status: 'not-tested', reason: why, checked: 0, violations: [], evidence: rule.applies.slice(0, 10).map(describeEvent), ...(held ? { slices: held } : {}) };
  }
  return { id: rule.id, status: 'passed', reason: `held on ${rule.applies.length} recorded request(s)`, checked: rule.applies.length, violations: [], evidence: rule.applies.slice(0, 10).map(describeEvent), ...withSlices };
}

export const isForm = (ct: string | null) => ct?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
export const isJson = (ct: string | null) => ct?.split(';')[0]?.trim().toLowerCase() === 'application/json';

/** Events strictly between the marks `<probe>:start` and `<probe>:end`, or null when the probe set none. */
export function window(events: readonly GradedEvent[], probe: string): GradedEvent[] | null {
  const marks = events.filter((e): e is MarkEvent => e.type === 'mark');
  const start = marks.find((m) => m.label === `${probe}:start`);
  const end = marks.find((m) => m.label === `${probe}:end` && (!start || m.seq > start.seq));
  if (!start || !end) return null;
  return events.filter((e) => e.seq > start.seq && e.seq < end.seq);
}

/** A probe's reason it did not run, or the fallback. */
/** Where the session family stopped or met an error answer, for the rules its actions and refreshes feed: " (the session probe stopped: …)", or "". */
export function sessionStopped(probes: ProbeReport): string {
  const s = probes.session;
  if (!s) return '';
  if (!s.ran) return ` (the session probe stopped: ${s.why})`;
  return s.errorAnswers?.length ? ` (in the session probe, ${s.errorAnswers.join('; ')})` : '';
}

export function whyNot(p: { ran: boolean; why?: string } | undefined, fallback: string): string {
  return p && !p.ran ? (p as { why: string }).why : fallback;
}
