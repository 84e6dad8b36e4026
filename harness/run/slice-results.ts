/**
 * Per requirement, how each declared slice went over every test of the run
 * (conformance.json's `requirements[].slices`). Pure.
 *   failed      some test's t.slice for it failed
 *   passed      none failed and one passed
 *   not-tested  every test that tried it could not carry it out
 *   missing     declared, but no test exercised it (the traceability test fails on it)
 */
import { declaredSlices } from '../catalog/slices/index.js';
import type { SliceRecord } from './outcome.js';
import type { TestRecord } from './verdict.js';

export interface SliceResult {
  /** `dim=value`. */
  slice: string;
  status: SliceRecord['status'] | 'missing';
  /** The tests that exercised it. */
  tests: string[];
  /** Why failed or not tested. */
  reason?: string;
}

type Seen = Map<string, Array<{ record: SliceRecord; test: string }>>;

/** The slices of requirement `id`: every declared one in declaration order, then any other exercised; empty when it has none. */
export function slicesFor(id: string, tests: readonly TestRecord[], declared: (id: string) => string[] = declaredSlices): SliceResult[] {
  const seen: Seen = new Map();
  for (const test of tests) {
    for (const record of test.meta?.slices ?? []) {
      if (record.requirement !== id) continue;
      seen.set(record.slice, [...(seen.get(record.slice) ?? []), { record, test: test.name }]);
    }
  }
  const keys = [...new Set([...declared(id), ...seen.keys()])];
  return keys.map((slice): SliceResult => {
    const runs = seen.get(slice) ?? [];
    const tests = [...new Set(runs.map((r) => r.test))];
    const failed = runs.filter((r) => r.record.status === 'failed');
    if (failed.length) return { slice, status: 'failed', tests, reason: failed.map((r) => r.record.reason ?? '').join('\n\n') };
    if (runs.some((r) => r.record.status === 'passed')) return { slice, status: 'passed', tests };
    if (runs.length) return { slice, status: 'not-tested', tests, reason: runs.map((r) => r.record.reason ?? '').filter(Boolean)[0] ?? 'not tested' };
    return { slice, status: 'missing', tests: [] };
  });
}
