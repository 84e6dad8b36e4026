/**
 * Slice faults (issue 19): a fault named `<REQUIREMENT-ID>@<dim>=<value>`
 * (`TOKEN-BASIC-IGNORED@grant=refresh_token`) breaks one rule on one slice only
 * (one grant, one endpoint, one link of a chain…) while every other slice stays
 * right. The faults are not written one by one: the harness's slice catalog
 * (harness/catalog/slices) declares the slices, and each requirement has ONE
 * break point here and one call `ctx.faults.breaks(ID, { dim: value })` at the
 * place the mock implements the rule, generic over the dimension's values.
 *
 * A slice fault is valid when its requirement is listed here with its dimension.
 * The mock stays standalone: the dimension names are plain strings shared by
 * convention with harness/catalog/slices/dimensions.ts (the self-verification
 * checks that they agree).
 */

import { WEBHOOK_SLICE_BREAKS } from './webhooks/slice-breaks.js';

export interface SliceBreak {
  /** The dimensions this break point is generic over. */
  dims: readonly string[];
  /** What breaking it does, for any slice. */
  description: string;
}

export const SLICE_BREAKS = {
  // Token endpoint
  'TOKEN-BASIC-IGNORED': { dims: ['grant'], description: 'On that grant, an Authorization: Basic header that does not hold the real credentials makes an otherwise correct token request fail.' },
  ...WEBHOOK_SLICE_BREAKS,
} as const satisfies Record<string, SliceBreak>;

export type SliceBreakId = keyof typeof SLICE_BREAKS;

/** A slice fault's parts, or null when `name` is not written `ID@dim=value`. */
export function parseSliceFault(name: string): { requirement: string; dim: string; value: string } | null {
  const m = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)@([a-z][a-z0-9-]*)=(.+)$/.exec(name);
  return m ? { requirement: m[1]!, dim: m[2]!, value: m[3]! } : null;
}

/** Why `name` is not a valid slice fault, or null when it is. */
export function sliceFaultProblem(name: string): string | null {
  const parsed = parseSliceFault(name);
  if (!parsed) return `a slice fault is written ID@dim=value; got ${name}`;
  const point = (SLICE_BREAKS as Record<string, SliceBreak>)[parsed.requirement];
  if (!point) return `${parsed.requirement} has no slice break point (mock/slice-faults.ts)`;
  if (!point.dims.includes(parsed.dim)) return `${parsed.requirement} breaks only over ${point.dims.join(', ')}, not ${parsed.dim}`;
  return null;
}
