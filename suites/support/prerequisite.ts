/**
 * The steps a test rests on before its check (a code, a token pair, a registration,
 * a status check): when one fails, the test is blocked by the requirement whose own
 * test judges that step, not failed (harness/run/prerequisite.ts). The runner's
 * t.prerequisite() does the wrapping; a bare context (a unit test) gets the same here.
 */
import { PrerequisiteFailed, isPrerequisiteFailed } from '../../harness/run/prerequisite.js';
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from './context.js';

export { PrerequisiteFailed, isPrerequisiteFailed };

/** Runs `fn`, a step resting on requirement `id`: its failure blocks the test (or fails it, when `id` is its own). */
export async function prerequisite<T>(t: SuiteContext, id: string | readonly string[], fn: () => T | Promise<T>): Promise<T> {
  if (typeof t.prerequisite === 'function') return t.prerequisite(id, fn);
  try {
    return await fn();
  } catch (err) {
    if (isPrerequisiteFailed(err) || (err instanceof Error && err.name === 'NotTestedSignal')) throw err;
    throw new PrerequisiteFailed(id, err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/**
 * A 401 for an access token an earlier answer of this test rotated: the step failed
 * because the previous token stopped working, which HEADERS-PREVIOUS-TOKEN-VALID judges.
 */
export function refusedAsSuperseded(t: SuiteContext, res: HttpResponse, accessToken: string | null | undefined): boolean {
  return res.status === 401 && !!accessToken && typeof t.superseded === 'function' && t.superseded(accessToken);
}

/** The requirement a refused API step rests on: HEADERS-PREVIOUS-TOKEN-VALID for a rotated token, else `id`. */
export function restsOn(t: SuiteContext, res: HttpResponse, accessToken: string | null | undefined, id: string): string {
  return refusedAsSuperseded(t, res, accessToken) ? 'HEADERS-PREVIOUS-TOKEN-VALID' : id;
}

/**
 * The x-access-token of an answer whose rotated token a later step uses. A successful
 * answer without one blocks the test by HEADERS-ROTATION-ON-SUCCESS (whose own test
 * judges the header; there the failure is its own). A refused answer gives null: what
 * follows is the caller's check.
 */
export function rotatedTokenOf(res: HttpResponse, what: string): string | null {
  const rotated = res.headers['x-access-token'];
  if (rotated) return rotated;
  if (res.status >= 200 && res.status < 300) {
    throw new PrerequisiteFailed('HEADERS-ROTATION-ON-SUCCESS', `${what} answered HTTP ${res.status} without an x-access-token header: no rotated token for the next step`);
  }
  return null;
}
