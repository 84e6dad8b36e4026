/** What a slice break point is (mock/slice-faults.ts): the one place a rule can be broken on any slice of its dimensions. */
export interface SliceBreak {
  /** The dimensions this break point is generic over. */
  dims: readonly string[];
  /** What breaking it does, for any slice. */
  description: string;
}
