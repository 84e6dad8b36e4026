/**
 * How the client self-verification judges a legal variant (test/client/support/client-judge.ts):
 * what a variant declares untested, a whole rule or one slice of it, must be not tested with a
 * reason; a failure or a warning there is a false one, a pass a stale declaration; every other
 * rule and slice is held as on the conforming example.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_CATALOG } from '../../harness/catalog/index.js';
import { declaredValues, slicesOf } from '../../harness/catalog/slices/index.js';
import type { ClientJudgement, ClientSliceJudgement } from '../../harness/client/judge.js';
import { judgeVariant, parseUntested } from './support/client-judge.js';

const RULE = 'CLIENT-AUTHZ-REDIRECT-URI';
const SLICE = `${RULE}@reached-as=other-name`;

/** Every CLIENT- rule and each of its declared slices passed, but for what `change` says. */
function judgements(change: (id: string, s?: ClientSliceJudgement) => Partial<ClientSliceJudgement> = () => ({})): ClientJudgement[] {
  return CLIENT_CATALOG.map((r) => {
    const dims = [...new Set(slicesOf(r.id).map((s) => s.dim))];
    const slices = dims.flatMap((dim) => declaredValues(r.id, dim).map((value): ClientSliceJudgement => {
      const held: ClientSliceJudgement = { dim, value, status: 'passed', reason: 'held on 1 recorded request(s)', checked: 1, violations: [] };
      return { ...held, ...change(r.id, held) };
    }));
    const own = change(r.id);
    return { id: r.id, status: 'passed', reason: 'held', checked: 1, violations: [], evidence: [], ...(dims.length ? { slices } : {}), ...own } as ClientJudgement;
  });
}

const refusedName = (id: string, s?: ClientSliceJudgement): Partial<ClientSliceJudgement> =>
  id === RULE && s?.dim === 'reached-as' && s.value === 'other-name' ? { status: 'not-tested', reason: 'the application answered 400 to its connect URL reached as localhost:3000', checked: 0 } : {};

describe('a legal variant, judged', () => {
  it('reads an untested entry as a rule or as one slice of a rule', () => {
    expect(parseUntested('CLIENT-CANCELLATION-STATE-CHECKED')).toEqual({ id: 'CLIENT-CANCELLATION-STATE-CHECKED' });
    expect(parseUntested(SLICE)).toEqual({ id: RULE, dim: 'reached-as', value: 'other-name' });
  });

  it('is conformant when the one slice it declares is not tested, with a reason, and its rule held elsewhere', () => {
    const verdict = judgeVariant(judgements(refusedName), [], [SLICE]);
    expect(verdict).toEqual({ ok: true, why: expect.stringContaining(`not tested as declared: ${SLICE}`) });
  });

  it('is not conformant when a slice is not tested that it does not declare', () => {
    expect(judgeVariant(judgements(refusedName), [], []).ok).toBe(false);
  });

  it('is not conformant when the slice it declares untested failed, or its rule did (a false failure)', () => {
    const failedSlice = (id: string, s?: ClientSliceJudgement) => (refusedName(id, s).status ? { status: 'failed' as const, reason: 'the redirect_uri is not the registered one' } : {});
    expect(judgeVariant(judgements(failedSlice), [], [SLICE])).toEqual({ ok: false, why: expect.stringContaining('false failure') });
    const failedRule = (id: string, s?: ClientSliceJudgement) => (s ? refusedName(id, s) : id === RULE ? { status: 'failed' as const, reason: 'violated' } : {});
    expect(judgeVariant(judgements(failedRule), [], [SLICE]).ok).toBe(false);
  });

  it('is not conformant when the slice it declares untested was judged after all (a stale declaration), or has no reason', () => {
    expect(judgeVariant(judgements(), [], [SLICE])).toEqual({ ok: false, why: expect.stringContaining('declared untested but was passed') });
    const noReason = (id: string, s?: ClientSliceJudgement) => (refusedName(id, s).status ? { status: 'not-tested' as const, reason: ' ' } : {});
    expect(judgeVariant(judgements(noReason), [], [SLICE])).toEqual({ ok: false, why: expect.stringContaining('without a reason') });
    expect(judgeVariant(judgements(refusedName), [], [`${RULE}@reached-as=elsewhere`])).toEqual({ ok: false, why: expect.stringContaining('declares no slice') });
  });

  it('excuses the declared slice only: another slice of the same rule not tested is a miss', () => {
    const alsoConfigured = (id: string, s?: ClientSliceJudgement) => (id === RULE && s?.dim === 'reached-as' ? { status: 'not-tested' as const, reason: 'refused', checked: 0 } : {});
    expect(judgeVariant(judgements(alsoConfigured), [], [SLICE])).toEqual({ ok: false, why: expect.stringContaining(`${RULE} [reached-as=configured] not-tested`) });
  });

  it('accepts a whole rule declared untested only when it is not tested', () => {
    const id = 'CLIENT-CANCELLATION-STATE-CHECKED';
    const untested = (rule: string, s?: ClientSliceJudgement) => (rule === id ? { status: 'not-tested' as const, reason: 'nothing tells them apart', checked: 0 } : {});
    expect(judgeVariant(judgements(untested), [], [id]).ok).toBe(true);
    expect(judgeVariant(judgements(), [], [id])).toEqual({ ok: false, why: expect.stringContaining('declared untested but was passed') });
  });
});
