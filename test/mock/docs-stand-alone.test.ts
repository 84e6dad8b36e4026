/**
 * The project's documentation stands alone (docs/mock.md and its siblings): a clone
 * holds everything the README and docs/ link to. No link leaves the repository
 * for a sibling folder, every relative link names a file that exists, and every
 * `#anchor` into a Markdown file names one of its headings.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  'reports/README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as '-'. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    out.add(m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'));
  }
  return out;
}

function links(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('The documentation stands alone', () => {
  it.each(DOCS)('%s links to nothing outside the repository', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared\//);
    for (const link of links(text).filter((l) => !/^[a-z]+:/.test(l) && !l.startsWith('#'))) {
      const target = resolve(dirname(join(ROOT, file)), link.split('#')[0]!);
      expect(relative(ROOT, target).startsWith('..'), `${file} → ${link}`).toBe(false);
    }
  });

  it.each(DOCS)('%s: every relative link and anchor resolves', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const broken: string[] = [];
    for (const link of links(text).filter((l) => !/^[a-z]+:/.test(l))) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), path);
      if (!existsSync(target)) {
        broken.push(`${link} (no such file)`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it('the README lists the project\'s own documentation', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const doc of ['docs/target-profile.md', 'docs/control-protocol.md', 'docs/reading-requirements.md', 'docs/mock.md', 'docs/spec/lock-access-service.md']) {
      expect(readme).toContain(`](${doc})`);
    }
  });
});
