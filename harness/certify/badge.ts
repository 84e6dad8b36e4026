/**
 * badge.svg of a certified package: "lockconf | <verdict>", coloured by the
 * verdict. Static (no font, image or script fetched); the fingerprint of the
 * signer in its title, for a reader who hovers over it.
 */
import escapeHtml from 'escape-html';
import type { ConformanceResult } from '../report/result-file.js';

const COLOUR: Partial<Record<ConformanceResult['verdict'], string>> = {
  conformant: '#2e8540',
  'not-conformant': '#c0392b',
  incomplete: '#d68910',
};

const TEXT: Partial<Record<ConformanceResult['verdict'], string>> = {
  conformant: 'conformant',
  'not-conformant': 'not conformant',
  incomplete: 'incomplete',
};

/** Width of a text in Verdana 11px, roughly: enough room whatever the font. */
const width = (text: string) => Math.round(text.length * 7 + 12);

export function renderBadge(verdict: ConformanceResult['verdict'], keyFingerprint: string): string {
  const label = 'lockconf';
  const value = TEXT[verdict] ?? verdict;
  const colour = COLOUR[verdict] ?? '#777';
  const lw = width(label);
  const vw = width(value);
  const title = `lockconf: ${value} (certified, signed by key ${keyFingerprint})`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + vw}" height="20" role="img" aria-label="${escapeHtml(`${label}: ${value}`)}">
<title>${escapeHtml(title)}</title>
<rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${label}</text><text x="${lw + vw / 2}" y="14">${escapeHtml(value)}</text>
</g></svg>
`;
}
