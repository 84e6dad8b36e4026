/**
 * docs/requirements.md, generated from the catalog and the suites: every
 * requirement with its level, source section, the quoted rule and the tests that
 * check it. `npm run requirements` rewrites it; a test in `npm test` fails when it
 * is stale, so the published list always matches the catalog.
 */
import { AREAS, CATALOG, type Requirement } from '../catalog/index.js';
import { SPEC_MAP } from '../catalog/spec-map/index.js';
import { anchorsByRequirement } from '../catalog/traceability.js';
import type { DeclaredTest } from '../run/selection.js';

/** Markdown table cells: pipes and line breaks would end the cell. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function renderRequirementsDoc(tests: readonly DeclaredTest[], catalog: readonly Requirement[] = CATALOG): string {
  const byId = new Map<string, DeclaredTest[]>();
  for (const t of tests) byId.set(t.id, [...(byId.get(t.id) ?? []), t]);
  const count = (level: string) => catalog.filter((r) => r.level === level).length;
  const anchors = anchorsByRequirement(SPEC_MAP);
  const out: string[] = [
    '# lockconf requirements',
    '',
    '<!-- Generated from harness/catalog/ and suites/ by `npm run requirements`; do not edit by hand. -->',
    '',
    `${catalog.length} requirements: ${count('MUST')} MUST (a failure makes the target not conformant), ` +
      `${count('SHOULD')} SHOULD (a failure is a warning), ${count('INFO')} INFO (what the spec leaves open: observed, never failed).`,
    'Each rule is quoted from the Lock Access Service spec, or from RFC 6749 where OAuth 2.0 itself imposes it; lockconf\'s reading of it follows in italics.',
    'The anchors under each source name the statements of the spec that cite the requirement (docs/coverage.md shows them with their tests and faults).',
    '',
  ];
  for (const area of AREAS) {
    const reqs = catalog.filter((r) => r.area === area);
    if (reqs.length === 0) continue;
    out.push(`## ${area}`, '', '| ID | Level | Source | Rule | Tests |', '|---|---|---|---|---|');
    for (const r of reqs) {
      const checks = byId.get(r.id) ?? [];
      const testText = r.untestable
        ? `not testable: ${r.untestable}`
        : checks.length === 0
          ? 'checked inside other tests'
          : checks.map((t) => `${t.title} (\`${t.file}\`)`).join('<br>');
      const source = r.source === 'Lock Access Service spec' || r.section.startsWith(r.source) ? r.section : `${r.source}: ${r.section}`;
      const cited = (anchors.get(r.id) ?? []).map((a) => `\`${a}\``).join(' ');
      const rule = cell(r.rule) + (r.reading ? `<br>*Reading:* ${cell(r.reading)}` : '');
      out.push(`| \`${r.id}\` | ${r.level} | ${cell(source)}${cited ? `<br>${cited}` : ''} | ${rule} | ${cell(testText)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
