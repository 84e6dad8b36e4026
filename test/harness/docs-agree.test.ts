/**
 * The README, `lockconf conformance --help`, reports/README.md and docs/ say the
 * same about exit codes, options and variables, and what they say is what the code
 * does: the exit codes as exitCodeFor() gives them, the options as the command line
 * declares them (a hidden option is documented nowhere), every LOCKCONF_ variable
 * the code reads documented in one of DOCS.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../harness/cli.js';
import { exitCodeFor } from '../../harness/commands/common.js';
import { CONFORMANCE_HELP } from '../../harness/commands/help.js';
import { CATALOG } from '../../harness/catalog/index.js';
import { ROOT } from '../support/cli.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** Markdown written by hand (the spec and the generated docs say nothing about the command line). */
const HAND_WRITTEN_DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md') && !['requirements.md', 'coverage.md'].includes(f))
  .map((f) => `docs/${f}`);
/** Where a variable counts as documented. */
const DOCS = ['README.md', 'reports/README.md', ...HAND_WRITTEN_DOCS];
const HELP = 'lockconf conformance --help';
const flat = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ');

const program = buildProgram(() => {});
const command = (name: string) => program.commands.find((c) => c.name() === name)!;
const visible = (name: string) => command(name).options.filter((o) => !o.hidden).map((o) => o.long!);

describe('exit codes', () => {
  /** Each document's words for exit codes 0, 1 and 2. */
  const readme = read('README.md');
  const rows = (code: number) => new RegExp(`^\\| ${code} \\| (.*) \\|$`, 'm').exec(readme)?.[1] ?? '';
  const help = /Exit codes:\n([\s\S]*?)\n\n/.exec(CONFORMANCE_HELP)?.[1] ?? '';
  const helpRow = (code: number) => new RegExp(`^  ${code}  ([\\s\\S]*?)(?=^  \\d  |$(?![\\s\\S]))`, 'm').exec(help)?.[1] ?? '';
  const reports = /Exit codes of[^:]*: 0 ([\s\S]*?), 1 ([\s\S]*?), 2 ([\s\S]*?)\.\n/.exec(read('reports/README.md'));
  const segments: Record<string, string[]> = {
    'README.md (the exit code table)': [0, 1, 2].map(rows),
    [HELP]: [0, 1, 2].map(helpRow),
    'reports/README.md': [1, 2, 3].map((i) => reports?.[i] ?? ''),
  };

  /** How each verdict is named, and whether its name belongs to one exit code only. */
  const VERDICTS: Array<{ verdict: Parameters<typeof exitCodeFor>[0]; words: RegExp; only: boolean }> = [
    { verdict: 'conformant', words: /(?<!not[ -])\bconformant\b/, only: true },
    { verdict: 'partial', words: /\bpartial\b/, only: true },
    { verdict: 'not-conformant', words: /\bnot[ -]conformant\b/, only: true },
    { verdict: 'incomplete', words: /\bincomplete\b/, only: false }, // also under 0: "incomplete with --allow-incomplete"
    { verdict: 'interrupted', words: /\binterrupted\b/, only: true },
    { verdict: 'interfered', words: /\binterfered\b/, only: true },
    { verdict: 'error', words: /could not be carried out/, only: true },
  ];

  for (const [doc, codes] of Object.entries(segments)) {
    it(`${doc} gives every verdict the exit code the command exits with`, () => {
      expect(codes.every((c) => c.trim() !== ''), `${doc}: a row for each of 0, 1 and 2`).toBe(true);
      for (const { verdict, words, only } of VERDICTS) {
        const code = exitCodeFor(verdict);
        expect(flat(codes[code]!), `${doc}: ${verdict} exits ${code}`).toMatch(words);
        if (only) for (const other of [0, 1, 2].filter((c) => c !== code)) expect(flat(codes[other]!), `${doc}: ${verdict} is not under ${other}`).not.toMatch(words);
      }
      expect(flat(codes[exitCodeFor('incomplete', true)]!), `${doc}: --allow-incomplete makes incomplete exit 0`).toContain('--allow-incomplete');
    });
  }
});

describe('options', () => {
  /** Options the documents may name that belong to other commands than lockconf's. */
  const OTHER_COMMANDS: Record<string, string> = {
    '--all': 'npm run matrix', '--shard': 'npm run matrix', '--faults': 'npm run matrix',
    '--force': 'npm run mutation', '--incremental': 'npm run mutation', '--project': 'vitest',
    '--help': 'every command (commander)', '--version': 'lockconf (commander)', '--porcelain': 'git status', '--mutate': 'npm run mutation (StrykerJS)',
    '--adopt-pending': 'npm run mutation:triage', '--close-stale': 'npm run mutation:triage', '--strict': 'npm run mutation:triage', '--fix': 'node test/mutation/pending-check.mjs',
  };
  const everyVisible = new Set(program.commands.flatMap((c) => visible(c.name())));

  it('every option of conformance --help is in the README', () => {
    const readme = read('README.md');
    expect(visible('conformance').filter((o) => !new RegExp(`\`${o}[\\s\`=]`).test(readme))).toEqual([]);
  });

  it('every option the documents name in code is an option lockconf shows in --help (none hidden, none gone)', () => {
    const unknown: string[] = [];
    for (const doc of DOCS) {
      for (const code of read(doc).matchAll(/`([^`\n]*)`/g)) {
        for (const [option] of code[1]!.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) {
          if (!everyVisible.has(option) && !(option in OTHER_COMMANDS)) unknown.push(`${doc}: ${option} in \`${code[1]}\``);
        }
      }
    }
    expect(unknown).toEqual([]);
  });
});

describe('variables', () => {
  /** Variables the command line sets for its own vitest project; nobody sets them by hand. */
  const INTERNAL: Record<string, string> = {
    LOCKCONF_RECEIVER_URL: 'set by `conformance --receiver URL` for the receiver project',
    LOCKCONF_RECEIVER_EXPLICIT: 'set by `conformance --receiver URL` for the receiver project',
  };
  function sources(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sources(path) : /\.(ts|js|mjs)$/.test(name) && !name.startsWith('bundle') ? [path] : [];
    });
  }
  const read_ = ['harness', 'mock', 'suites', 'bin'].flatMap((d) => sources(join(ROOT, d)));
  const inCode = new Map<string, string>();
  for (const file of read_) for (const [name] of readFileSync(file, 'utf8').matchAll(/\bLOCKCONF_[A-Z0-9_]+/g)) if (!inCode.has(name)) inCode.set(name, relative(ROOT, file));
  const documented = [...DOCS.map(read), CONFORMANCE_HELP].join('\n');

  it(`every LOCKCONF_ variable the code reads is documented in ${[HELP, ...DOCS].join(', ')}`, () => {
    const undocumented = [...inCode].filter(([name]) => !(name in INTERNAL) && !new RegExp(`\\b${name}\\b`).test(documented)).map(([n, f]) => `${n} (${f})`);
    expect(undocumented).toEqual([]);
  });

  it(`every LOCKCONF_ variable ${HELP} lists is read by the code`, () => {
    const listed = [...new Set(CONFORMANCE_HELP.match(/\bLOCKCONF_[A-Z0-9_]+/g) ?? [])];
    expect(listed.filter((name) => !inCode.has(name))).toEqual([]);
  });
});

describe('client grading addresses', () => {
  it("the README says LOCKCONF_ACTION_URLS' format (it was only in --help)", () => {
    expect(flat(read('README.md'))).toMatch(/\| actionUrls \| LOCKCONF_ACTION_URLS \| \(in the profile a JSON list of URLs; in the variable the URLs separated by spaces or commas\)/);
  });
});

describe('requirement levels', () => {
  // A requirement named with its level in hand-written prose ("`ID`, SHOULD", "`ID` (MUST)", "MUST `ID`") names the catalog's.
  const levels = new Map(CATALOG.map((r) => [r.id, r.level]));
  for (const doc of ['README.md', ...HAND_WRITTEN_DOCS]) {
    it(`${doc} gives each requirement the catalog's level`, () => {
      const text = read(doc);
      const named = [
        ...[...text.matchAll(/`([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)`,? \(?(MUST|SHOULD|INFO)\b/g)].map((m) => [m[1]!, m[2]!] as const),
        ...[...text.matchAll(/\b(MUST|SHOULD|INFO)\)? `([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)`/g)].map((m) => [m[2]!, m[1]!] as const),
      ];
      const wrong = named.filter(([id, level]) => levels.has(id) && levels.get(id) !== level).map(([id, level]) => `${id}: ${level} here, ${levels.get(id)} in the catalog`);
      expect(wrong).toEqual([]);
    });
  }
});
