/**
 * `npm run mutation [-- FOLDER… | STRYKER OPTION…]`: StrykerJS on the mock's code,
 * one Stryker run per requirement scope of each folder (test/mutation/folders.mjs:
 * oauth, api, webhooks, events, and the narrower scopes of some of their files),
 * each mutant checked by one conformance run limited to that scope; then the score
 * and the untriaged survivors (triage.mjs).
 *
 *   npm run mutation                          all four folders, incremental
 *   npm run mutation -- oauth webhooks        those folders
 *   npm run mutation -- --force               every mutant again (after an edit of
 *                                             suites/ or harness/: incremental mode
 *                                             sees only the mock's sources change)
 *   npm run mutation -- --mutate 'mock/oauth/codes.ts' --concurrency 1
 *
 * Any other option is passed to `stryker run`. A --mutate pattern that names a file
 * of a scope runs with that scope; any other pattern with its folder's scope.
 * Each scope's run reads the folder's committed results
 * (test/mutation/incremental/<folder>.json, the incremental baseline and the report
 * the triage reads) through a copy, reports/mutation/<folder>.<pid>.partial-incremental.json,
 * and its files' results are merged back into the committed file when it ends (the
 * results of the folder's other files are kept; so are those of a file's other lines after
 * `--mutate 'file:10-20'`, while its source is unchanged). HTML: reports/mutation/<folder>.html
 * (of the folder's last scope run).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FOLDERS, FOLDER_NAMES, incrementalFileOf } from './folders.mjs';
import { printSummary } from './triage.mjs';

/** The copy a run of the folder works on (one per process: two runs of a folder at once must not share it). */
const partialFileOf = (folder) => `reports/mutation/${folder}.${process.pid}.partial-incremental.json`;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const STRYKER = join(dirname(require.resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js');

/** Folder names and Stryker options out of the command line. */
export function parseArgs(argv) {
  const folders = [];
  const passthrough = [];
  const mutate = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') && FOLDER_NAMES.includes(arg)) folders.push(arg);
    else {
      passthrough.push(arg);
      if ((arg === '--mutate' || arg === '-m') && argv[i + 1] !== undefined) mutate.push(...argv[i + 1].split(','));
      else if (arg.startsWith('--mutate=')) mutate.push(...arg.slice('--mutate='.length).split(','));
    }
  }
  return { folders, passthrough, mutate };
}

/** The folders a --mutate list touches (all of them when a pattern names none). */
export function foldersOfMutate(patterns) {
  const hit = FOLDER_NAMES.filter((f) => patterns.some((p) => p.replace(/^!/, '').replace(/^\.\//, '').startsWith(`mock/${f}/`)));
  return hit.length ? hit : FOLDER_NAMES;
}

/**
 * The Stryker runs of a folder: one per scope, each { only, mutate } (mutate: the
 * patterns of --mutate). Without user patterns: each scope's files, and the
 * folder's glob less every scoped file. With them: an exact file path goes to its
 * scope, any other pattern to the folder's.
 */
export function runsOf(folder, patterns = []) {
  const spec = FOLDERS[folder];
  const scoped = spec.scopes.flatMap((s) => s.files);
  if (!patterns.length) {
    return [
      ...spec.scopes.map((s) => ({ only: s.only, mutate: [...s.files] })),
      { only: spec.only, mutate: [spec.mutate, ...scoped.map((f) => `!${f}`)] },
    ];
  }
  const mine = patterns.map((p) => p.replace(/^\.\//, '')).filter((p) => foldersOfMutate([p]).includes(folder) || !FOLDER_NAMES.some((f) => p.replace(/^!/, '').startsWith(`mock/${f}/`)));
  const runs = [];
  const fileOf = (p) => p.replace(/:[\d:-]+$/, ''); // `file:10-20` is of the file's scope
  for (const s of spec.scopes) {
    const files = mine.filter((p) => s.files.includes(fileOf(p)));
    if (files.length) runs.push({ only: s.only, mutate: files });
  }
  const rest = mine.filter((p) => !scoped.includes(fileOf(p)));
  if (rest.length) runs.push({ only: spec.only, mutate: [...rest, ...scoped.map((f) => `!${f}`)] });
  return runs;
}

const mutantKey = (m) => `${m.mutatorName}|${m.replacement}|${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column}`;

/**
 * One file's results: the partial's, and, when the source is the same (a run of some
 * of its lines, `--mutate file:10-20`), the committed mutants the partial did not run.
 */
function mergeFile(committed, partial) {
  if (!committed || typeof partial.source !== 'string' || committed.source !== partial.source) return partial;
  const ran = new Set(partial.mutants.map(mutantKey));
  return { ...partial, mutants: [...committed.mutants.filter((m) => !ran.has(mutantKey(m))), ...partial.mutants] };
}

/**
 * Whether a run's --mutate patterns take `file`: a path (`file` or `file:10-20`) or a
 * `dir/**\/*.ts` glob, less `!` patterns (the only shapes runsOf makes).
 */
export function mutatedBy(file, patterns) {
  const hit = (p) => {
    const path = p.replace(/^\.\//, '').replace(/:[\d:-]+$/, '');
    const star = path.indexOf('**/*');
    return star < 0 ? path === file : file.startsWith(path.slice(0, star)) && file.endsWith(path.slice(star + 4));
  };
  return patterns.some((p) => !p.startsWith('!') && hit(p)) && !patterns.some((p) => p.startsWith('!') && hit(p.slice(1)));
}

/**
 * Stryker's results of `partial` merged into `committed`, file by file (mergeFile), for
 * the files the run mutated (`mutate`: its --mutate patterns; all without). Stryker's
 * incremental report also carries the other files of its incremental file, with their
 * current source but the mutant locations of the run that made them: never taken.
 */
export function mergeResults(committed, partial, mutate) {
  const ran = Object.fromEntries(Object.entries(partial.files).filter(([name]) => !mutate || mutatedBy(name, mutate)));
  if (!committed) return { ...partial, files: ran };
  const files = { ...committed.files };
  for (const [name, result] of Object.entries(ran)) files[name] = mergeFile(committed.files[name], result);
  const testFiles = { ...(committed.testFiles ?? {}) };
  for (const [name, tf] of Object.entries(partial.testFiles ?? {})) {
    const ids = new Set((testFiles[name]?.tests ?? []).map((t) => t.id));
    testFiles[name] = { ...tf, tests: [...(testFiles[name]?.tests ?? []), ...(tf.tests ?? []).filter((t) => !ids.has(t.id))] };
  }
  return { ...partial, files, testFiles };
}

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

function main() {
  const { folders: named, passthrough, mutate } = parseArgs(process.argv.slice(2));
  const folders = named.length ? named : mutate.length ? foldersOfMutate(mutate) : FOLDER_NAMES;
  const rest = passthrough.filter((a, i) => !(a === '--mutate' || a === '-m' || a.startsWith('--mutate=') || ['--mutate', '-m'].includes(passthrough[i - 1])));
  let failed = false;
  mkdirSync(join(ROOT, 'reports', 'mutation'), { recursive: true });
  for (const folder of folders) {
    const committedFile = join(ROOT, incrementalFileOf(folder));
    const partial = join(ROOT, partialFileOf(folder));
    for (const run of runsOf(folder, mutate)) {
      if (existsSync(committedFile)) copyFileSync(committedFile, partial);
      else rmSync(partial, { force: true });
      process.stdout.write(`\nmutation: ${folder}: ${run.mutate.join(' ')} (conformance --only '${run.only}')\n`);
      const args = [STRYKER, 'run', 'test/mutation/stryker.config.mjs', '--incremental', '--incrementalFile', partialFileOf(folder), '--mutate', run.mutate.join(',')];
      const result = spawnSync(process.execPath, [...args, ...rest], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, LOCKCONF_MUTATION_FOLDER: folder, LOCKCONF_MUTATION_ONLY: run.only },
      });
      if (result.status !== 0) failed = true;
      const results = readJson(partial);
      if (result.status === 0 && results) {
        writeFileSync(committedFile, `${JSON.stringify(mergeResults(readJson(committedFile), results, run.mutate))}\n`);
      }
      rmSync(partial, { force: true });
    }
  }
  process.stdout.write('\n');
  printSummary({ folders });
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
