/**
 * The judgement of an application's OAuth client: the grading mock's recording
 * (mock/grading/recording.ts) and what lockconf's probes did → one outcome per
 * CLIENT- requirement, and per declared slice of it (harness/catalog/slices/client.ts).
 * Pure: no I/O, no clock. The rules live in judge/ (authorization, token and
 * refresh, API calls); judge/model.ts settles each the same way.
 *
 * An outcome is `passed` when the rule was exercised and held every time,
 * `failed` with each violation listed, or `not-tested` with the reason (the app
 * never refreshed, made no API call, …). The level (MUST fails, SHOULD warns) is
 * applied by the runner, as for every conformance test.
 */
import type { GradedEvent } from '../../mock/grading/recording.js';
import { apiRules } from './judge/api.js';
import { authzRules } from './judge/authz.js';
import { settle, type ClientJudgement, type ProbeReport } from './judge/model.js';
import { tokenRules } from './judge/token.js';

export type { Api401Probe, CancellationProbe, ClientJudgement, ClientSliceJudgement, ClientStatus, ProbeReport, StateProbe } from './judge/model.js';
export { describeEvent, window } from './judge/model.js';
export { LOCK_GROUPS, USER_GROUPS } from './judge/api.js';

/** Judges every CLIENT- requirement for one client, in catalog order. */
export function judgeClient(allEvents: readonly GradedEvent[], clientId: string, probes: ProbeReport = {}): ClientJudgement[] {
  const events = allEvents.filter((e) => e.clientId === clientId || e.type === 'mark');
  const rules = [...authzRules(events, allEvents, clientId, probes), ...tokenRules(events, probes, clientId), ...apiRules(events, allEvents, clientId, probes)];
  return rules.map(settle);
}
