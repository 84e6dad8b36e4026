/**
 * Whether a conformance run killed the mutant it ran against: the kill logic of
 * run-mutant.mjs, apart so that a unit test can feed it fake conformance.json files.
 *
 * A mutant is killed when the run says the service broke a rule, at any level:
 * - a requirement `failed` (MUST) or `warned` (a failed SHOULD, which exits 0);
 * - the run could not be carried out (`verdict: "error"`: the mock refused its
 *   own credentials, crashed at start…);
 * - there is no readable conformance.json (the run crashed before writing it).
 * - a requirement of the run's scope (`--only`) that the reference run tested is
 *   not tested (a mutant that breaks the mock's start or a capability leaves the
 *   run "incomplete": with --allow-incomplete that exits 0).
 * Informational requirements never kill, nor requirements outside the scope, nor
 * those the unmutated reference run leaves not tested as well (its list: `baseline`).
 */
import { readFileSync } from 'node:fs';

/** Statuses of a requirement that mean the service broke it. */
export const KILLING_STATUSES = new Set(['failed', 'warned']);

/**
 * The verdict on one mutant from the text of its conformance.json (undefined when
 * the file could not be read).
 * @param {string | undefined} text
 * @returns {{ killed: boolean, reason: string }}
 */
export function mutantVerdict(text, baseline = new Set()) {
  if (text === undefined) return { killed: true, reason: 'no conformance.json: the run did not finish' };
  let result;
  try {
    result = JSON.parse(text);
  } catch {
    return { killed: true, reason: 'conformance.json is not JSON: the run did not finish' };
  }
  if (!result || typeof result !== 'object' || !Array.isArray(result.requirements)) {
    return { killed: true, reason: 'conformance.json has no requirements list' };
  }
  if (result.verdict === 'error') return { killed: true, reason: 'the run could not be carried out (verdict "error")' };
  const broken = result.requirements.filter((r) => KILLING_STATUSES.has(r?.status)).map((r) => `${r.id} ${r.status}`);
  if (broken.length > 0) return { killed: true, reason: broken.join(', ') };
  const lost = notTestedInScope(result).filter((id) => !baseline.has(id));
  if (lost.length > 0) return { killed: true, reason: `not tested: ${lost.join(', ')}` };
  return { killed: false, reason: `no requirement failed or warned (verdict "${result.verdict}")` };
}

/** The IDs of the requirements of the run's scope (all, without --only) that were not tested. */
export function notTestedInScope(result) {
  const only = Array.isArray(result?.selection?.only) ? new Set(result.selection.only) : null;
  return (result?.requirements ?? []).filter((r) => r?.status === 'not-tested' && (!only || only.has(r.id))).map((r) => r.id);
}

/** The text of a file, or undefined when it cannot be read. */
export function readText(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The verdict from a conformance.json on disk. */
export function mutantVerdictOf(file, baseline) {
  return mutantVerdict(readText(file), baseline);
}
