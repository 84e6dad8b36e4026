/** The results as a plain-text table: name, figure, reference, ratio, goal, ok. Pure. */
import { formatNumber, goalText, type Figure, type Metric } from './result.js';

const show = (f: Figure | undefined) => (f ? `${formatNumber(f.value)} ${f.unit}` : '');

export function renderTable(metrics: readonly Metric[]): string {
  const rows = [
    ['name', 'figure', 'reference', 'ratio', 'goal', 'ok'],
    ...metrics.map((m) => [
      m.name,
      m.figure ? show(m.figure) : show({ value: m.value, unit: m.unit }),
      m.reference ? `${show(m.reference)} (${m.reference.what})` : '—',
      m.figure ? `${Number.isFinite(m.value) ? m.value.toFixed(2) : String(m.value)}×` : '—',
      m.goal === null ? '—' : m.unit === '×' ? `${m.goal.bound === 'at-least' ? '≥' : '≤'} ${m.goal.value}×` : `${goalText(m.goal)} ${m.unit}`,
      m.goal === null ? '' : m.ok ? 'ok' : 'MISSED',
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, col) => (col === 1 || col === 3 ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!)))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
