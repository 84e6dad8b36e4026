/** `--shard i/n` (as vitest's): part `index` (1-based) of `count`, contiguous in plan order, the parts' sizes differing by one at most. */
export interface Shard {
  index: number;
  count: number;
}

export function partOf<T>(entries: readonly T[], shard?: Shard): T[] {
  if (!shard) return [...entries];
  const cut = (i: number) => Math.floor((i * entries.length) / shard.count);
  return entries.slice(cut(shard.index - 1), cut(shard.index));
}
