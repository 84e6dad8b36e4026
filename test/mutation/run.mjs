#!/usr/bin/env node
/**
 * `npm run mutation [-- FOLDER… | STRYKER OPTION…]`: StrykerJS on the mock's code,
 * one Stryker run per folder (test/mutation/folders.mjs: oauth, api, webhooks,
 * events), each mutant checked by one conformance run scoped to the folder's
 * requirement areas; then the score and the untriaged survivors (triage.mjs).
 *
 *   npm run mutation                          all four folders, incremental
 *   npm run mutation -- oauth webhooks        those folders
 *   npm run mutation -- --force               every mutant again (after an edit of
 *                                             suites/ or harness/: incremental mode
 *                                             sees only the mock's sources change)
 *   npm run mutation -- --mutate 'mock/oauth/codes.ts' --concurrency 1
 *
 * Any option is passed to `stryker run`. Results: test/mutation/incremental/<folder>.json
 * (committed; the incremental baseline and the report the triage reads) and
 * reports/mutation/<folder>.{json,html}. A run restricted with --mutate reads the
 * committed file but writes reports/mutation/<folder>.partial-incremental.json, so
 * that the committed results of the folder's other files are not dropped (copy it over
 * the committed file when it holds the same files; its summary is printed from it).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FOLDERS, FOLDER_NAMES, incrementalFileOf } from './folders.mjs';
import { printSummary } from './triage.mjs';

const partialFileOf = (folder) => `reports/mutation/${folder}.partial-incremental.json`;
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

function main() {
  const { folders: named, passthrough, mutate } = parseArgs(process.argv.slice(2));
  const folders = named.length ? named : mutate.length ? foldersOfMutate(mutate) : FOLDER_NAMES;
  let failed = false;
  for (const folder of folders) {
    const args = [STRYKER, 'run', 'test/mutation/stryker.config.mjs', '--incremental'];
    if (mutate.length) {
      const partial = partialFileOf(folder);
      mkdirSync(join(ROOT, 'reports', 'mutation'), { recursive: true });
      if (existsSync(join(ROOT, incrementalFileOf(folder)))) copyFileSync(join(ROOT, incrementalFileOf(folder)), join(ROOT, partial));
      args.push('--incrementalFile', partial);
    }
    process.stdout.write(`\nmutation: ${folder} (${FOLDERS[folder].mutate}; conformance --only '${FOLDERS[folder].only}')\n`);
    const run = spawnSync(process.execPath, [...args, ...passthrough], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, LOCKCONF_MUTATION_FOLDER: folder },
    });
    if (run.status !== 0) failed = true;
  }
  process.stdout.write('\n');
  // A --mutate run's results are in the partial file (the files it mutated only).
  printSummary({ folders, ...(mutate.length ? { fileOf: partialFileOf } : {}) });
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
