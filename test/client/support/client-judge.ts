/**
 * What the client self-verification expects of one grading of the example application
 * (test/client/example-app.test.ts, and `npm run matrix -- --all`'s client part):
 * conformant as it is; each named fault failed by its requirement; each generated
 * fault failed by its requirement on its own slice.
 */
import { CLIENT_CATALOG } from '../../../harness/catalog/index.js';
import type { ClientJudgement } from '../../../harness/client/judge.js';
import type { ClientSliceFault } from './client-slice-faults.js';

export interface ClientVerdict {
  ok: boolean;
  why: string;
}

/** The example as it is: every CLIENT- rule judged and passed, every declared slice of it too. */
export function judgeConforming(judgements: readonly ClientJudgement[]): ClientVerdict {
  const missing = CLIENT_CATALOG.filter((r) => !judgements.some((j) => j.id === r.id)).map((r) => r.id);
  if (missing.length) return { ok: false, why: `not judged: ${missing.join(', ')}` };
  const wrong = judgements.filter((j) => j.status !== 'passed').map((j) => `${j.id}: ${j.status}: ${j.reason}`);
  if (wrong.length) return { ok: false, why: `false failures: ${wrong.join('; ')}` };
  const slices = judgements.flatMap((j) => (j.slices ?? []).filter((s) => s.status !== 'passed').map((s) => `${j.id} [${s.dim}=${s.value}] ${s.status}: ${s.reason}`));
  if (slices.length) return { ok: false, why: `slices not held: ${slices.join('; ')}` };
  return { ok: true, why: 'conformant: every rule and every declared slice passed' };
}

/**
 * A legal variant: judged as the example is (every rule and slice passed), except the
 * SHOULDs it is known to miss (`warns`), which may fail (a warning), never a MUST, and the
 * rules its choice leaves nothing to judge on (`untested`): not tested, never failed.
 */
export function judgeVariant(judgements: readonly ClientJudgement[], warns: readonly string[], untested: readonly string[] = []): ClientVerdict {
  const must = warns.filter((id) => CLIENT_CATALOG.find((r) => r.id === id)?.level !== 'SHOULD');
  if (must.length) return { ok: false, why: `a legal variant may miss SHOULDs only: ${must.join(', ')}` };
  const failedUntested = judgements.filter((j) => untested.includes(j.id) && j.status === 'failed').map((j) => `${j.id}: ${j.reason}`);
  if (failedUntested.length) return { ok: false, why: `false failures: ${failedUntested.join('; ')}` };
  const verdict = judgeConforming(judgements.filter((j) => !warns.includes(j.id) && !untested.includes(j.id)));
  const missing = CLIENT_CATALOG.filter((r) => !judgements.some((j) => j.id === r.id)).map((r) => r.id);
  if (missing.length) return { ok: false, why: `not judged: ${missing.join(', ')}` };
  if (!verdict.ok && !verdict.why.startsWith('not judged')) return verdict;
  return { ok: true, why: `conformant${warns.length ? ` (warned: ${warns.join(', ')})` : ''}` };
}

/** A named fault: its requirement failed. */
export function judgeNamedFault(requirement: string, judgements: readonly ClientJudgement[]): ClientVerdict {
  const judged = judgements.find((j) => j.id === requirement);
  return judged?.status === 'failed' ? { ok: true, why: `caught: ${requirement}` } : { ok: false, why: `${requirement} ${judged?.status ?? 'not judged'}: ${judged?.reason ?? ''}` };
}

/** A generated fault: its requirement failed, on its own slice. */
export function judgeGeneratedFault(fault: ClientSliceFault, judgements: readonly ClientJudgement[]): ClientVerdict {
  const named = judgeNamedFault(fault.requirement, judgements);
  if (!named.ok) return named;
  const slice = judgements.find((j) => j.id === fault.requirement)?.slices?.find((s) => s.dim === fault.dim && s.value === fault.value);
  return slice?.status === 'failed'
    ? { ok: true, why: `caught: ${fault.requirement} [${fault.dim}=${fault.value}]` }
    : { ok: false, why: `${fault.requirement} failed, but not on its slice [${fault.dim}=${fault.value}]: ${slice?.status ?? 'not reported'} ${slice?.reason ?? ''}` };
}
