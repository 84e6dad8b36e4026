/**
 * The spec split into its statements, each with a stable anchor, so every
 * sentence of the spec can be traced to the requirements that test it
 * (spec-map/) and a newcomer can go from a sentence to its test in one search.
 *
 * The spec is vendored at docs/spec/lock-access-service.md (the project must stand
 * alone). A statement is one table data row (`row-N`), one numbered or bulleted
 * item (`item-N`) or one paragraph (`para-N`), numbered from 1 within the section
 * of the nearest heading. The anchor is `<heading slug>/<kind>-<N>`, e.g.
 * `delivery/item-3` or `lock-events/row-5` (parenthesised asides of a heading are
 * left out of its slug).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const SPEC_PATH = resolve(import.meta.dirname, '../../docs/spec/lock-access-service.md');

export type StatementKind = 'row' | 'item' | 'para';

export interface SpecStatement {
  /** `<heading slug>/<kind>-<N>`: stable while the spec's text stays. */
  anchor: string;
  /** The heading path, e.g. "Events › Delivery". */
  section: string;
  kind: StatementKind;
  /** The statement's text (a table row's cells joined with " | "). */
  text: string;
  /** 1-based line in the spec. */
  line: number;
}

/** A heading's slug: parenthesised asides dropped, lower case, runs of other characters as one '-'. */
export function slug(heading: string): string {
  return heading.replace(/\s*\([^)]*\)/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

const TABLE_SEPARATOR = /^\|(\s*:?-+:?\s*\|)+\s*$/;

export function parseSpec(markdown: string): SpecStatement[] {
  const lines = markdown.split('\n');
  const out: SpecStatement[] = [];
  const path: string[] = [];
  let sectionSlug = '';
  let counts: Record<StatementKind, number> = { row: 0, item: 0, para: 0 };
  let paragraph: { text: string[]; line: number } | null = null;
  const seenSlugs = new Set<string>();

  const push = (kind: StatementKind, text: string, line: number) => {
    counts[kind] += 1;
    out.push({ anchor: `${sectionSlug}/${kind}-${counts[kind]}`, section: path.join(' › '), kind, text: text.trim(), line });
  };
  const flush = () => {
    if (paragraph) push('para', paragraph.text.join(' '), paragraph.line);
    paragraph = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const depth = heading[1]!.length;
      path.splice(depth - 1);
      path[depth - 1] = heading[2]!.trim();
      for (let d = 0; d < depth - 1; d++) path[d] ??= '';
      let s = slug(heading[2]!);
      if (seenSlugs.has(s)) s = `${slug(path[depth - 2] ?? '')}-${s}`;
      seenSlugs.add(s);
      sectionSlug = s;
      counts = { row: 0, item: 0, para: 0 };
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      const next = lines[i + 1] ?? '';
      if (TABLE_SEPARATOR.test(line)) continue; // the separator under a header
      if (TABLE_SEPARATOR.test(next)) continue; // a header row
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      push('row', cells.join(' | '), i + 1);
      continue;
    }
    const item = /^\s*(?:\d+\.|[-*])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      push('item', item[1]!, i + 1);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (paragraph) paragraph.text.push(line.trim());
    else paragraph = { text: [line.trim()], line: i + 1 };
  }
  flush();
  return out;
}

let cached: SpecStatement[] | null = null;

/** The statements of the vendored spec. */
export function specStatements(): SpecStatement[] {
  cached ??= parseSpec(readFileSync(SPEC_PATH, 'utf8'));
  return cached;
}
