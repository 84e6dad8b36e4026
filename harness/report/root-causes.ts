/** The terminal's lines that lead with the root causes of a run's failures and group what each blocked. */
import type { RequirementResult } from '../run/verdict.js';

/**
 * The root causes first, each with what it blocked: "failed: OAUTH-CODE-EXCHANGE (MUST),
 * blocking 75: …". A requirement a root blocked is named under it, not again on its own.
 */
export function rootCauseLines(requirements: readonly RequirementResult[], max = 8): string[] {
  const lines: string[] = [];
  const list = (ids: readonly string[]) => `${ids.slice(0, max).join(', ')}${ids.length > max ? ` and ${ids.length - max} more` : ''}`;
  for (const r of requirements.filter((x) => (x.status === 'failed' && !x.expected) || x.status === 'warned')) {
    const blocks = r.blocks ?? [];
    lines.push(`  ${r.status}: ${r.id} (${r.level})${blocks.length ? `, blocking ${blocks.length}: ${list(blocks)}` : ''}`);
  }
  // Blocked by a known deviation (--expect) only: no line above names them.
  const shown = new Set(requirements.filter((x) => (x.status === 'failed' && !x.expected) || x.status === 'warned').map((x) => x.id));
  const orphans = requirements.filter((x) => x.status === 'blocked' && !(x.blockedBy ?? []).some((b) => shown.has(b)));
  if (orphans.length) lines.push(`  blocked by a known deviation (--expect): ${list(orphans.map((x) => x.id))}`);
  return lines;
}
