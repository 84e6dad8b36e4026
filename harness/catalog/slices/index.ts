/**
 * The slice registry: every dimension and every requirement's declared slices,
 * merged from the declarations files (one per group of areas). A requirement
 * without a declaration has one implicit slice: it is checked on one example,
 * which is right only where the spec gives the rule no dimension.
 */
import { CATALOG } from '../index.js';
import { COMMON_DIMENSIONS } from './dimensions.js';
import { OAUTH_TOKEN_SLICES } from './oauth-token.js';
import { WEBHOOKS_EVENTS_SLICES } from './webhooks-events.js';
import { RECEIVER_SLICES } from './receiver.js';
import { CLIENT_SLICES } from './client.js';
import { SIGN_IN_SLICES } from './sign-in.js';
import type { DeclaredSlice, Dimension, SliceDeclaration, SliceDeclarations } from './types.js';

export type { DeclaredSlice, Dimension, Slice, SliceDeclaration, SliceDeclarations } from './types.js';
export { sliceKey, sliceKeys } from './types.js';

const FILES: readonly SliceDeclarations[] = [OAUTH_TOKEN_SLICES, SIGN_IN_SLICES, WEBHOOKS_EVENTS_SLICES, RECEIVER_SLICES, CLIENT_SLICES];

/** Every dimension, by ID. */
export const DIMENSIONS: ReadonlyMap<string, Dimension> = (() => {
  const out = new Map<string, Dimension>();
  for (const dim of [...COMMON_DIMENSIONS, ...FILES.flatMap((f) => f.dimensions)]) {
    if (out.has(dim.id)) throw new Error(`slice dimension declared twice: ${dim.id}`);
    out.set(dim.id, dim);
  }
  return out;
})();

/** Requirement ID → declaration, from every file (a requirement declared in two files is an error). */
export const SLICE_DECLARATIONS: ReadonlyMap<string, SliceDeclaration> = (() => {
  const out = new Map<string, SliceDeclaration>();
  const known = new Set(CATALOG.map((r) => r.id));
  for (const file of FILES) {
    for (const [id, decl] of Object.entries(file.slices)) {
      if (!known.has(id)) throw new Error(`slices declared for an unknown requirement: ${id}`);
      if (out.has(id)) throw new Error(`slices of ${id} declared twice`);
      for (const [dim, values] of Object.entries(decl)) {
        const dimension = DIMENSIONS.get(dim);
        if (!dimension) throw new Error(`slices of ${id}: unknown dimension ${dim}`);
        if (values !== 'all') {
          for (const v of values) if (!dimension.values.includes(v)) throw new Error(`slices of ${id}: ${dim} has no value ${v}`);
        }
      }
      out.set(id, decl);
    }
  }
  return out;
})();

/** `ID@dim=value` or `ID@dim` → why no mock fault can break that slice. */
export const SLICE_NO_FAULT: ReadonlyMap<string, string> = new Map(FILES.flatMap((f) => Object.entries(f.noFault ?? {})));

/** The values of `dim` declared for requirement `id` (empty when it is not declared over `dim`). */
export function declaredValues(id: string, dim: string): string[] {
  const decl = SLICE_DECLARATIONS.get(id);
  const values = decl?.[dim];
  if (!values) return [];
  return values === 'all' ? [...DIMENSIONS.get(dim)!.values] : [...values];
}

/** Every declared slice of a requirement, dimension by dimension, in value order. */
export function slicesOf(id: string): DeclaredSlice[] {
  const decl = SLICE_DECLARATIONS.get(id);
  if (!decl) return [];
  return Object.keys(decl).flatMap((dim) => declaredValues(id, dim).map((value) => ({ dim, value })));
}

/** The declared slices of a requirement as `dim=value` keys. */
export function declaredSlices(id: string): string[] {
  return slicesOf(id).map((s) => `${s.dim}=${s.value}`);
}

/** Why no fault breaks this slice, or null when one must. */
export function noFaultReason(id: string, dim: string, value: string): string | null {
  return SLICE_NO_FAULT.get(`${id}@${dim}=${value}`) ?? SLICE_NO_FAULT.get(`${id}@${dim}`) ?? null;
}

/** The requirements with declared slices. */
export function slicedRequirements(): string[] {
  return [...SLICE_DECLARATIONS.keys()];
}
