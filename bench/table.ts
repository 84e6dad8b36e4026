/** The results as a plain-text table: name, value, unit, goal, ok. Pure. */
import { formatNumber, goalText, type Metric } from './result.js';

export function renderTable(metrics: readonly Metric[]): string {
  const rows = [
    ['name', 'value', 'unit', 'goal', 'ok'],
    ...metrics.map((m) => [m.name, formatNumber(m.value), m.unit, goalText(m.goal), m.goal === null ? '' : m.ok ? 'ok' : 'MISSED']),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, col) => (col === 1 ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!)))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
