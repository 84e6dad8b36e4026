#!/usr/bin/env node
/**
 * `node test/mutation/pending-check.mjs [--fix]`: whether each pending entry of the
 * triage files (triage written ahead, pending.mjs) still names a mutant of the current
 * source, on its line: Stryker's instrumenter enumerates the mutants of the entries'
 * files (with the fault-switch ignorer), and the entries that name none are listed with
 * the lines where a mutant of the same key is now. `--fix` moves an entry whose key is
 * now on one line only, and that line has no entry of its own yet; the others want a
 * reading (the code changed). Exit 1 when an entry is left naming no mutant.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutantsOfScope } from './log-survivors.mjs';
import { checkPending } from './pending.mjs';
import { readPending } from './triage.mjs';
import { keyOf } from './mutant-key.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fix = process.argv.includes('--fix');
  const pending = readPending();
  const files = [...new Set(pending.map((e) => e.file))];
  const current = (await Promise.all(files.map((f) => mutantsOfScope([f])))).flat();
  const lost = checkPending(current, pending);
  const taken = new Set(pending.map((e) => `${keyOf(e)}@${e.line}`));
  let left = 0;
  const moved = new Map();
  for (const { entry, lines } of lost) {
    const to = lines.length === 1 && !taken.has(`${keyOf(entry)}@${lines[0]}`) ? lines[0] : undefined;
    if (fix && to !== undefined) {
      moved.set(entry, to);
      taken.add(`${keyOf(entry)}@${to}`);
    } else left++;
    process.stdout.write(`${entry.source}: ${entry.file}:${entry.line} ${entry.mutator} ${JSON.stringify(entry.original)} -> ${JSON.stringify(entry.replacement)}: no such mutant on its line` + `${lines.length ? ` (same mutant now on line ${lines.join(', ')})` : ' (none in the file now)'}${moved.has(entry) ? `: moved to ${to}` : ''}\n`);
  }
  for (const source of new Set([...moved.keys()].map((e) => e.source))) {
    const path = join(ROOT, source);
    const json = JSON.parse(readFileSync(path, 'utf8'));
    const mine = pending.filter((e) => e.source === source);
    json.pending = json.pending.map((e, i) => (moved.has(mine[i]) ? { ...e, line: moved.get(mine[i]) } : e));
    writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  }
  process.stdout.write(`${pending.length} pending entries in ${files.length} files (${current.length} mutants): ${lost.length} name no mutant on their line${fix ? `, ${moved.size} moved` : ''}\n`);
  if (left) process.exitCode = 1;
}
