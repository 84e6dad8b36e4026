/**
 * docs/coverage.md, generated: the traceability matrix read from the spec's side.
 * For each statement of the spec, in order: its anchor and text, the requirements
 * that check it (ID, level), the tests that check each, and the mock faults that
 * break each (or why none can, or why nothing can test the statement).
 * `npm run requirements` rewrites it; a test in `npm test` fails when it is stale.
 */
import type { Requirement } from '../catalog/requirement.js';
import {
  faultsByRequirement,
  isCovered,
  testsByRequirement,
  type TraceInputs,
} from '../catalog/traceability.js';
import { renderClientSliceSection, renderSliceSection } from './slices-doc.js';

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function renderCoverageDoc(input: TraceInputs & { catalog: readonly Requirement[] }): string {
  const byId = new Map(input.catalog.map((r) => [r.id, r]));
  const tests = testsByRequirement(input.tests);
  const faults = faultsByRequirement(input.faults);
  const statements = input.statements;
  const mapped = statements.filter((s) => s.anchor in input.map);
  const notTestable = mapped.filter((s) => !isCovered(input.map[s.anchor]!));
  const graded = input.requirements.filter((r) => r.level !== 'INFO' && !r.untestable);
  const withFault = graded.filter((r) => faults.has(r.id));
  const withReason = graded.filter((r) => !faults.has(r.id) && r.noFault);
  const tested = input.requirements.filter((r) => tests.has(r.id));

  const out: string[] = [
    '# lockconf coverage: from each statement of the spec to its tests and faults',
    '',
    '<!-- Generated from docs/spec/lock-access-service.md, harness/catalog/, suites/ and mock/faults.ts by `npm run requirements`; do not edit by hand. -->',
    '',
    `- Statements of the spec: ${statements.length}; mapped: ${mapped.length} (${mapped.length - notTestable.length} to requirements, ${notTestable.length} with a reason why nothing can test them); unmapped: ${statements.length - mapped.length}.`,
    `- Requirements of the service: ${input.requirements.length}, ${tested.length} with a test under suites/.`,
    `- MUST and SHOULD requirements: ${graded.length}; with a mock fault that breaks them: ${withFault.length}; with a reason why no fault can: ${withReason.length}; with neither: ${graded.length - withFault.length - withReason.length}.`,
    '',
    'Anchors are `<section slug>/<row|item|para>-N` (harness/catalog/spec-statements.ts); search this page for an anchor or a phrase of the spec.',
    'A fault is a switch of the reference mock (mock/faults.ts) that breaks exactly one rule; the self-verification matrix runs each and expects the suite to catch it through that requirement.',
    '',
  ];

  let section = '';
  for (const s of statements) {
    if (s.section !== section) {
      section = s.section;
      out.push('', `## ${section.split(' › ').filter(Boolean).join(' › ')}`, '', '| Anchor | Statement | Requirement | Tests | Faults |', '|---|---|---|---|---|');
    }
    const coverage = input.map[s.anchor];
    const anchor = `\`${s.anchor}\``;
    const text = cell(s.text);
    if (!coverage) {
      out.push(`| ${anchor} | ${text} | **unmapped** | | |`);
      continue;
    }
    if (!isCovered(coverage)) {
      out.push(`| ${anchor} | ${text} | not testable: ${cell(coverage.notTestable)} | | |`);
      continue;
    }
    coverage.requirements.forEach((id, i) => {
      const req = byId.get(id);
      const first = i === 0;
      const head = first ? `| ${anchor} | ${text}${coverage.note ? `<br>*${cell(coverage.note)}*` : ''} ` : '| | ';
      if (!req) {
        out.push(`${head}| \`${id}\` (unknown) | | |`);
        return;
      }
      const testText = req.untestable
        ? `not testable: ${cell(req.untestable)}`
        : (tests.get(id) ?? []).map((t) => `${cell(t.title)} (\`${t.file}\`)`).join('<br>') || '**no test**';
      const faultText = req.level === 'INFO'
        ? 'INFO: observed, never failed'
        : (faults.get(id) ?? []).map((f) => `\`${f.name}\``).join(', ') || (req.noFault ? `no fault: ${cell(req.noFault)}` : req.untestable ? '' : '**none**');
      out.push(`${head}| \`${id}\` ${req.level} | ${testText} | ${faultText} |`);
    });
  }
  if (input.sliceBreaks) out.push(...renderSliceSection(input.requirements, input.sliceBreaks));
  if (input.receiver) {
    out.push(...renderSliceSection(input.receiver.requirements, input.receiver.sliceBreaks, {
      heading: 'Slices of the webhook receiver (`conformance --receiver`): requirement × slice',
      intro: 'The same discipline on the receiver side: each declared slice is checked by its own assertion in suites/receiver/ and broken by its own generated fault `ID@dim=value` in the example receiver (examples/app/receiver-slice-faults.ts); test/receiver/receiver-self-verification.test.ts runs one per requirement, `npm run matrix -- --all` (or `LOCKCONF_RECEIVER_MATRIX_SLICES=all` on that file) every one alone. The X-Signature forms are the one list of harness/catalog/signature-forms.ts, which the service checks accept too.',
    }));
  }
  if (input.clientSliceBreaks) out.push(...renderClientSliceSection(input.catalog, input.clientSliceBreaks));
  out.push('');
  return out.join('\n');
}
