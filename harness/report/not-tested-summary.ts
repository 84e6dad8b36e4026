/**
 * What an incomplete run did not test, and the one thing that would test most
 * of it ("a control URL would test 54 of them"). Pure: read from the
 * requirement statuses and their reasons ("needs consent: …").
 */
import type { Capability } from '../catalog/index.js';
import type { RequirementResult } from '../run/verdict.js';
import { NOT_SELECTED } from '../run/verdict.js';

export interface Remedy {
  /** What to give the run, as a person would say it. */
  what: string;
  /** The capabilities it brings. */
  brings: readonly Capability[];
}

/** The things a user can give a run, and what each brings. */
export const REMEDIES: readonly Remedy[] = [
  {
    what: 'a control URL (controlUrl and LOCKCONF_CONTROL_TOKEN, see docs/control-protocol.md)',
    brings: ['control', 'consent', 'clock', 'events', 'revoke', 'client-credentials', 'user-token', 'second-user'],
  },
  { what: 'a user token in the token cache (`lockconf login --target …`)', brings: ['user-token'] },
  { what: 'a capture URL the target can reach (capture.publicUrl, a tunnel to this machine)', brings: ['capture'] },
];

/** The capabilities a not-tested reason names ("needs consent: …; needs capture: …"). */
export function capabilitiesNamed(reason: string): Capability[] {
  return [...reason.matchAll(/needs ([a-z-]+)/g)].map((m) => m[1] as Capability);
}

export interface NotTestedSummary {
  /** Not-tested requirements a run could test (untestable ones and those outside --only left out). */
  ids: string[];
  /** The remedy that would test most of them, with how many; null when none helps. */
  best: { what: string; count: number } | null;
}

/** A control URL was given but did not work (global setup's probe: "the control interface at … did not answer GET /fixtures"). */
const CONTROL_SET_BUT_FAILING = /the control interface at .* did not answer/;

/** When the profile has a control URL that failed, the remedy is to make it work, not to set one. */
const FIX_CONTROL: Remedy = {
  what: 'a working control interface (controlUrl is set but GET /fixtures failed: check controlUrl and LOCKCONF_CONTROL_TOKEN)',
  brings: REMEDIES[0]!.brings,
};

export function summariseNotTested(requirements: readonly RequirementResult[], untestable: ReadonlySet<string> = new Set()): NotTestedSummary {
  const open = requirements.filter((r) => r.status === 'not-tested' && r.level !== 'INFO' && !untestable.has(r.id) && r.reason !== NOT_SELECTED);
  const controlSet = open.some((r) => CONTROL_SET_BUT_FAILING.test(r.reason));
  let best: NotTestedSummary['best'] = null;
  for (const remedy of controlSet ? [FIX_CONTROL, ...REMEDIES.slice(1)] : REMEDIES) {
    const count = open.filter((r) => {
      const needs = capabilitiesNamed(r.reason);
      return needs.length > 0 && needs.every((cap) => remedy.brings.includes(cap));
    }).length;
    if (count > 0 && (!best || count > best.count)) best = { what: remedy.what, count };
  }
  return { ids: open.map((r) => r.id), best };
}

/** Lines for the terminal: the IDs (shortened past `max`) and the remedy. */
export function notTestedLines(summary: NotTestedSummary, max = 12): string[] {
  if (!summary.ids.length) return [];
  const shown = summary.ids.slice(0, max).join(', ');
  const more = summary.ids.length > max ? ` and ${summary.ids.length - max} more` : '';
  // The list says what it holds: the counts line above counts every not-tested requirement, this one MUST and SHOULD only.
  const lines = [`not tested, MUST and SHOULD in scope (${summary.ids.length}; INFO, untestable and unselected ones aside): ${shown}${more}`];
  if (summary.best) lines.push(`${summary.best.what} would test ${summary.best.count} of them`);
  return lines;
}
