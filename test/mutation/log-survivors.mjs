#!/usr/bin/env node
/**
 * `node test/mutation/log-survivors.mjs LOG FILE...`: the survivors so far of a Stryker
 * scope that is still running, as triage stubs, so that a long scope can be triaged
 * while it runs (Stryker writes its report only when the scope ends).
 *
 * LOG is the LOCKCONF_MUTATION_LOG file (one line per finished mutant: its id and
 * verdict; run-mutant.mjs). FILE... are the scope's files in the order Stryker read
 * them (a scope's `files` in folders.mjs; a glob's files in path order), each as the
 * run's --mutate named it: a run of `file:START-END` numbers only the mutants within
 * those lines, so name the range too. Stryker
 * numbers the mutants of a run from 0 across its files; this script instruments the
 * same files with Stryker's instrumenter and the fault-switch ignorer, so that each id
 * of the log names its mutant. The log's last scope is read (it starts at the last
 * dry run, mutant "none"); `--scope N` reads the Nth (1-based). Survivors already in a
 * triage file (or written ahead under its `pending`, for their own line) are left out; timed-out mutants write no line (Stryker kills the run).
 * Check the numbering on the sandbox's instrumented copy when in doubt
 * (`grep -o 'stryMutAct_9fa48("[0-9]*")' .stryker-tmp/sandbox-*\/FILE`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { strykerPlugins } from './fault-switch-ignorer.mjs';
import { originalText, readPending, readTriage, triageOf } from './triage.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const quiet = () => {};
const logger = { isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false, trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet, fatal: quiet };

/** `file` or `file:START-END` (lines, as --mutate takes them; Stryker's reading: from column 0 of START to the end of END). */
export function mutateOf(pattern) {
  const m = /^(.*?):(\d+)-(\d+)$/.exec(pattern);
  if (!m) return { name: pattern, mutate: true };
  return { name: m[1], mutate: [{ start: { line: Number(m[2]) - 1, column: 0 }, end: { line: Number(m[3]) - 1, column: Number.MAX_SAFE_INTEGER } }] };
}

/**
 * Every mutant of `files` (paths from the project root, or `path:START-END`) as Stryker
 * numbers them in one run: a range takes the mutants that lie wholly within it.
 */
export async function mutantsOfScope(files) {
  // One file named twice (two ranges) is one file of the run, with both ranges.
  const byName = new Map();
  for (const { name, mutate } of files.map(mutateOf)) {
    const before = byName.get(name);
    byName.set(name, before === undefined ? mutate : before === true || mutate === true ? true : [...before, ...mutate]);
  }
  const input = [...byName].map(([name, mutate]) => ({ name, content: readFileSync(join(ROOT, name), 'utf8'), mutate }));
  const ignorer = new strykerPlugins[0].injectableClass();
  const { mutants } = await new Instrumenter(logger).instrument(input, { plugins: null, excludedMutations: [], ignorers: [ignorer], noHeader: true });
  const source = Object.fromEntries(input.map((f) => [f.name, f.content]));
  // The instrumenter's locations are 0-based lines and columns; the report's (and originalText's) 1-based.
  const at = ({ line, column }) => ({ line: line + 1, column: column + 1 });
  return mutants.map((m) => ({
    id: String(m.id),
    file: m.fileName,
    line: m.location.start.line + 1,
    mutator: m.mutatorName,
    replacement: m.replacement ?? '',
    original: originalText(source[m.fileName], { start: at(m.location.start), end: at(m.location.end) }),
  }));
}

/** The verdicts of one scope of the log: id → killed. */
export function verdictsOfScope(text, scope) {
  const scopes = [];
  for (const line of text.split('\n').filter(Boolean)) {
    const row = JSON.parse(line);
    if (row.mutant === 'none') scopes.push(new Map());
    else scopes.at(-1)?.set(String(row.mutant), row.killed);
  }
  return (scope ? scopes[scope - 1] : scopes.at(-1)) ?? new Map();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--scope');
  const scope = at >= 0 ? Number(args.splice(at, 2)[1]) : undefined;
  const [log, ...files] = args;
  if (!log || files.length === 0) {
    process.stderr.write('usage: node test/mutation/log-survivors.mjs LOG FILE[:START-END]... [--scope N]\n');
    process.exit(2);
  }
  const verdicts = verdictsOfScope(readFileSync(log, 'utf8'), scope);
  const mutants = (await mutantsOfScope(files)).filter((m) => verdicts.has(m.id)).map((m) => ({ ...m, status: verdicts.get(m.id) ? 'Killed' : 'Survived' }));
  const { survivors } = triageOf(mutants, readTriage(), readPending());
  const untriaged = survivors.filter((m) => !m.triage).map(({ file, line, mutator, replacement, original }) => ({ file, line, mutator, replacement, original, class: '', why: '' }));
  process.stderr.write(`${verdicts.size} mutants judged: ${mutants.length - survivors.length} killed, ${survivors.length} survived, ${untriaged.length} untriaged\n`);
  process.stdout.write(`${JSON.stringify(untriaged, null, 2)}\n`);
}
