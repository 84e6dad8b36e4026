/**
 * Slices (issue 19): the dimensions the spec's text and tables give a rule, and
 * the values of each. A requirement checked on one example certifies nothing
 * about the others; a slice is one value of one dimension (`grant=refresh_token`,
 * `endpoint=GET /users/me`), exercised by its own assertion and broken by its own
 * generated fault (mock/slice-faults.ts).
 */

/** One dimension of the spec: its values, and where the spec gives them. */
export interface Dimension {
  /** Stable, lower-case: grant, endpoint, position, chars, redirect-uri-part, actor, … */
  id: string;
  title: string;
  /** Where the spec gives the values (section or table, quoted). */
  source: string;
  /** Every value, in spec order; a value holds no comma and no "@". */
  values: readonly string[];
}

/**
 * The slices a requirement is declared over: per dimension, the values that apply
 * ('all': every value of the dimension). The declaration is what the spec gives
 * the rule, not what a test happens to do.
 */
export type SliceDeclaration = Readonly<Record<string, readonly string[] | 'all'>>;

/** A slice written as data: one value per dimension ({ grant: 'refresh_token' }). */
export type Slice = Readonly<Record<string, string>>;

/** One declared slice of a requirement: one value of one dimension. */
export interface DeclaredSlice {
  dim: string;
  value: string;
}

/** What a declarations file (oauth-token.ts, webhooks-events.ts) exports. */
export interface SliceDeclarations {
  /** Area-specific dimensions (the common ones live in dimensions.ts). */
  dimensions: readonly Dimension[];
  /** Requirement ID → its declaration. */
  slices: Readonly<Record<string, SliceDeclaration>>;
  /**
   * Slices no mock fault can break, with the reason, keyed `ID@dim=value` or
   * `ID@dim` (every value). The self-verification's traceability rule accepts a
   * declared slice without a break point only when it is listed here.
   */
  noFault?: Readonly<Record<string, string>>;
}

/** `dim=value`, the way reports and fault names write a slice. */
export function sliceKey(dim: string, value: string): string {
  return `${dim}=${value}`;
}

/** The slice keys of a slice object, in its key order. */
export function sliceKeys(slice: Slice): string[] {
  return Object.entries(slice).map(([dim, value]) => sliceKey(dim, value));
}
