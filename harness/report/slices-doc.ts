/**
 * The requirement × slice part of docs/coverage.md (issue 19): the dimensions the
 * spec gives its rules, and for each requirement with declared slices, every
 * slice with the generated fault that breaks it (or why none can). Which test
 * exercises each slice is proven at run time: conformance.json lists each
 * requirement's slices with their status, and a test of npm test fails on a
 * declared slice no test exercised.
 */
import type { Requirement } from '../catalog/requirement.js';
import { DIMENSIONS, noFaultReason, slicedRequirements, slicesOf } from '../catalog/slices/index.js';

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** `sliceBreaks`: requirement → the dimensions its mock break point covers (mock/slice-faults.ts). */
export function renderSliceSection(
  catalog: readonly Requirement[],
  sliceBreaks: Readonly<Record<string, readonly string[]>>,
  /** Another part (the receiver's): its heading and the sentence under it, without the table of dimensions. */
  part?: { heading: string; intro: string },
): string[] {
  const byId = new Map(catalog.map((r) => [r.id, r]));
  const ids = slicedRequirements().filter((id) => byId.has(id));
  const all = ids.flatMap((id) => slicesOf(id).map((s) => ({ id, ...s })));
  const faultOf = (id: string, dim: string, value: string): string | null => {
    const req = byId.get(id)!;
    if (req.level === 'INFO' || req.untestable) return null;
    if (noFaultReason(id, dim, value) !== null) return null;
    return sliceBreaks[id]?.includes(dim) ? `${id}@${dim}=${value}` : null;
  };
  const generated = all.filter((s) => faultOf(s.id, s.dim, s.value) !== null).length;
  if (part) {
    return [
      '', `## ${part.heading}`, '', part.intro, '',
      `- Requirements with slices: ${ids.length}; slices declared: ${all.length}; generated faults: ${generated}.`,
      '', '| Requirement | Slice | Generated fault |', '|---|---|---|',
      ...sliceRows(ids, byId, faultOf),
    ];
  }
  const out: string[] = [
    '',
    '## Slices: requirement × slice',
    '',
    'A slice is one value of one dimension the spec gives a rule (harness/catalog/slices/). Each declared slice is checked by its own assertion (`t.slice`) and broken by its own generated fault `ID@dim=value` (mock/slice-faults.ts: one break point per requirement, generic over the values); `npm run matrix -- --all` runs every generated fault. A requirement not listed here is checked on one example, where the spec gives its rule no dimension.',
    '',
    `- Requirements with slices: ${ids.length}; slices declared: ${all.length}; generated faults: ${generated}; slices with a reason why no fault can break them: ${all.filter((s) => noFaultReason(s.id, s.dim, s.value) !== null).length}.`,
    '',
    '### Dimensions',
    '',
    '| Dimension | Values | Where the spec gives them |',
    '|---|---|---|',
    ...[...DIMENSIONS.values()].map((d) => `| \`${d.id}\` ${cell(d.title)} | ${d.values.map((v) => `\`${cell(v)}\``).join(', ')} | ${cell(d.source)} |`),
    '',
    '### Slices of each requirement',
    '',
    '| Requirement | Slice | Generated fault |',
    '|---|---|---|',
  ];
  out.push(...sliceRows(ids, byId, faultOf));
  return out;
}

/** One row per declared slice: the requirement (on its first), the slice, its generated fault or why none. */
function sliceRows(ids: readonly string[], byId: ReadonlyMap<string, Requirement>, faultOf: (id: string, dim: string, value: string) => string | null): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const req = byId.get(id)!;
    slicesOf(id).forEach((s, i) => {
      const fault = faultOf(id, s.dim, s.value);
      const why = noFaultReason(id, s.dim, s.value);
      const faultText = fault ? `\`${cell(fault)}\`` : why ? `no fault: ${cell(why)}` : req.level === 'INFO' ? 'INFO: observed, never failed' : '**none**';
      out.push(`| ${i === 0 ? `\`${id}\` ${req.level}` : ''} | \`${cell(`${s.dim}=${s.value}`)}\` | ${faultText} |`);
    });
  }
  return out;
}

/**
 * The application side's requirement × slice (the CLIENT- requirements): each declared
 * slice with the example application's generated fault that breaks it
 * (examples/app/client-faults.ts; test/client/ proves each caught by its requirement).
 */
export function renderClientSliceSection(catalog: readonly Requirement[], breaks: Readonly<Record<string, readonly string[]>>): string[] {
  const clients = catalog.filter((r) => r.id.startsWith('CLIENT-') && slicesOf(r.id).length > 0);
  const all = clients.flatMap((r) => slicesOf(r.id).map((s) => ({ id: r.id, ...s })));
  const out: string[] = [
    '',
    '## Client slices: requirement × slice',
    '',
    'The application-side rules (`conformance --client`) declare their slices too (harness/catalog/slices/client.ts). Each is judged on its own (conformance.json lists it) and broken by its own generated fault `ID@dim=value` in the example application (examples/app/client-faults.ts: one break point per requirement); test/client/ proves each caught by its requirement on its slice (a sample in npm test, every one under `npm run matrix -- --all` or with `LOCKCONF_CLIENT_FAULTS=all`).',
    '',
    `- Requirements with slices: ${clients.length}; slices declared: ${all.length}; generated faults: ${all.filter((s) => breaks[s.id]?.includes(s.dim)).length}.`,
    '',
    '| Requirement | Slice | Generated fault of the example application |',
    '|---|---|---|',
  ];
  for (const r of clients) {
    slicesOf(r.id).forEach((s, i) => {
      const fault = breaks[r.id]?.includes(s.dim) ? `\`${cell(`${r.id}@${s.dim}=${s.value}`)}\`` : '**none**';
      out.push(`| ${i === 0 ? `\`${r.id}\` ${r.level}` : ''} | \`${cell(`${s.dim}=${s.value}`)}\` | ${fault} |`);
    });
  }
  return out;
}
