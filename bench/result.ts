/**
 * What a benchmark reports: named figures, each with the goal it must meet.
 * A goal is a bound on a ratio against a reference measured in the same run on
 * the same machine ("at least 3× the peer's rate"), never an absolute time; a
 * figure without a goal is shown for context and never fails the run.
 */

export type Bound = 'at-least' | 'at-most';

export interface Goal {
  bound: Bound;
  value: number;
}

export interface Metric {
  name: string;
  value: number;
  unit: string;
  goal: Goal | null;
  ok: boolean;
  /** Context a reader needs to trust the figure (e.g. "no gc: heap includes garbage"). */
  note?: string;
  /**
   * For a comparison: `value` is the ratio figure / reference (unit ×), and these
   * are the two figures it was computed from, measured side by side.
   */
  figure?: Figure;
  reference?: Figure & { what: string };
}

export interface Figure {
  value: number;
  unit: string;
}

/**
 * A figure against its reference: the ratio is always figure / reference, and
 * the goal bounds it from the side that matters (at least for rates, at most for
 * durations).
 */
export function compared(name: string, figure: Figure, reference: Figure & { what: string }, goal: Goal | null, note?: string): Metric {
  const ratio = reference.value > 0 ? figure.value / reference.value : Number.NaN;
  return { ...metric(name, ratio, '×', goal, note), figure, reference };
}

export const atLeast = (value: number): Goal => ({ bound: 'at-least', value });
export const atMost = (value: number): Goal => ({ bound: 'at-most', value });

export function meets(value: number, goal: Goal | null): boolean {
  if (goal === null) return true;
  if (!Number.isFinite(value)) return false;
  return goal.bound === 'at-least' ? value >= goal.value : value <= goal.value;
}

export function metric(name: string, value: number, unit: string, goal: Goal | null, note?: string): Metric {
  return { name, value, unit, goal, ok: meets(value, goal), ...(note ? { note } : {}) };
}

export function goalText(goal: Goal | null): string {
  if (goal === null) return '—';
  return `${goal.bound === 'at-least' ? '≥' : '≤'} ${formatNumber(goal.value)}`;
}

/** Three significant figures for small values, whole numbers from 100 up. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100 || Number.isInteger(value)) return Math.round(value).toString();
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}
