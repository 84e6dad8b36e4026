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

/** A variant's `untested` entry: a whole rule (`ID`), or one declared slice of it (`ID@dim=value`). */
export function parseUntested(entry: string): { id: string; dim?: string; value?: string } {
  const m = /^([^@]+)@([^=]+)=(.+)$/.exec(entry);
  return m ? { id: m[1]!, dim: m[2]!, value: m[3]! } : { id: entry };
}

/**
 * A legal variant: judged as the example is (every rule and slice passed), except the
 * SHOULDs it is known to miss (`warns`), which may fail (a warning), never a MUST, and what
 * its choice leaves nothing to judge on (`untested`: a rule, or one slice `ID@dim=value` of
 * a rule otherwise held): exactly that not tested, with a reason; failed or warned is not.
 */
export function judgeVariant(judgements: readonly ClientJudgement[], warns: readonly string[], untested: readonly string[] = []): ClientVerdict {
  const must = warns.filter((id) => CLIENT_CATALOG.find((r) => r.id === id)?.level !== 'SHOULD');
  if (must.length) return { ok: false, why: `a legal variant may miss SHOULDs only: ${must.join(', ')}` };
  const missing = CLIENT_CATALOG.filter((r) => !judgements.some((j) => j.id === r.id)).map((r) => r.id);
  if (missing.length) return { ok: false, why: `not judged: ${missing.join(', ')}` };
  const declared = untested.map(parseUntested);
  const wholeRules = new Set(declared.filter((u) => !u.dim).map((u) => u.id));
  const untestedSlice = (id: string, dim: string, value: string) => declared.some((u) => u.id === id && u.dim === dim && u.value === value);
  // What the variant declares untested is so: not tested, with a reason (a failure there is a false one; a pass, a stale declaration).
  const wrong = declared.flatMap((u) => {
    const j = judgements.find((x) => x.id === u.id)!;
    const judged = u.dim ? j.slices?.find((s) => s.dim === u.dim && s.value === u.value) : j;
    if (!judged) return [`${u.id}: declares no slice ${u.dim}=${u.value}`];
    const at = u.dim ? `${u.id} [${u.dim}=${u.value}]` : u.id;
    if (judged.status === 'failed') return [`false failure: ${at}: ${judged.reason}`];
    if (judged.status !== 'not-tested') return [`${at} is declared untested but was ${judged.status}`];
    return judged.reason.trim() ? [] : [`${at} not tested without a reason`];
  });
  if (wrong.length) return { ok: false, why: wrong.join('; ') };
  // Everything else as the conforming example: a declared slice is taken out of its rule's slices, nothing more.
  const rest = judgements
    .filter((j) => !warns.includes(j.id) && !wholeRules.has(j.id))
    .map((j) => (j.slices ? { ...j, slices: j.slices.filter((s) => !untestedSlice(j.id, s.dim, s.value)) } : j));
  const verdict = judgeConforming(rest);
  if (!verdict.ok && !verdict.why.startsWith('not judged')) return verdict;
  const notes = [warns.length ? `warned: ${warns.join(', ')}` : '', untested.length ? `not tested as declared: ${untested.join(', ')}` : ''].filter(Boolean);
  return { ok: true, why: `conformant${notes.length ? ` (${notes.join('; ')})` : ''}` };
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
