#!/usr/bin/env node
/**
 * `npm run mutation:triage [-- --list | --stubs | --strict]`: the mutation score of
 * each folder from its Stryker results (test/mutation/incremental/<folder>.json),
 * and how many surviving mutants test/mutation/triage.json and the folders' own
 * test/mutation/triage-<folder>.json do not account for.
 *
 * A triage entry names a survivor by file, mutator, replacement and the original
 * text it replaces (`original`), so that it still matches when lines move; `line`
 * is for the reader, and picks the entry when several share the rest. Classes:
 *   equivalent  no behaviour on the wire changes (`why` says why);
 *   legal       the spec allows the changed behaviour (`spec` quotes the sentence);
 *   gap         a test was missing (`test`: the requirement whose test now kills
 *               it, or `open`: not written yet).
 * Entries that match no survivor (fixed, killed now, or moved text) are listed as stale.
 * `closed` keeps the gaps a new test closed (survivors once, killed now), or a change of
 * design removed (`test`: "design: " and the test that fails on the old code), for the record.
 * `hangs` explains the timed-out mutants: Stryker counts a timeout as detected, which
 * is true only of a mutant whose run can never end (`why`: the loop or the wait that
 * never finishes); a run that was merely slow is re-run with a longer --timeoutMS, not
 * explained. A timeout no `hangs` entry explains is reported as unexplained.
 * `pending` keeps triage written ahead for mutants not run yet (pending.mjs): an entry
 * triages the survivor of its own line once it has run, and --adopt-pending moves it.
 *
 *   --list           print every untriaged survivor
 *   --stubs          print untriaged survivors as triage entries to fill in
 *   --strict         exit 1 when a survivor is untriaged, a timeout unexplained, or a file's results are older
 *                    than its source (printed: re-run it, incremental mode re-tests the
 *                    mutants of its changed code)
 *   --adopt-pending  move the pending entries whose mutant survived to `survivors`, a
 *                    killed gap written with the test that closes it to `closed`, drop
 *                    the other killed ones (and those triaged already), keep the rest
 *   --close-stale    settle the entries no survivor matches (close-stale.mjs): a gap
 *                    killed now moves to `closed` naming its killers, the others drop
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FOLDER_NAMES, incrementalFileOf } from './folders.mjs';
import { keyOf } from './mutant-key.mjs';
import { adoptInto, closedGap, countFates, matchPending } from './pending.mjs';
import { settleInto, staleFates } from './close-stale.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TRIAGE_FILE = 'test/mutation/triage.json';
/** A folder's own triage file, beside the shared one (each folder can be triaged apart). */
export const triageFileOf = (folder) => `test/mutation/triage-${folder}.json`;
/** Every triage file: the shared one and each folder's. */
export const TRIAGE_FILES = [TRIAGE_FILE, ...FOLDER_NAMES.map(triageFileOf)];
const readEntries = (files, key) =>
  files.flatMap((f) => {
    const file = resolve(ROOT, f);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8'))[key] ?? []).map((e) => ({ ...e, source: f })) : [];
  });
export const CLASSES = ['equivalent', 'legal', 'gap'];

/** The source text a mutant replaces (report locations: 1-based lines and columns). */
export function originalText(source, location) {
  const lines = source.split('\n');
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  const parts = [lines[start.line - 1].slice(start.column - 1)];
  for (let l = start.line; l < end.line - 1; l++) parts.push(lines[l]);
  parts.push(lines[end.line - 1].slice(0, end.column - 1));
  return parts.join('\n');
}

/** Every mutant of a Stryker report as { file, line, mutator, replacement, original, status }. */
export function mutantsOf(report) {
  const out = [];
  for (const [file, result] of Object.entries(report.files ?? {})) {
    for (const m of result.mutants ?? []) {
      out.push({
        file,
        line: m.location.start.line,
        mutator: m.mutatorName,
        replacement: m.replacement ?? '',
        original: originalText(result.source, m.location),
        status: m.status,
        ...(m.statusReason ? { reason: m.statusReason } : {}),
      });
    }
  }
  return out;
}

/** The files of a Stryker report whose source is not the file's current text (their results are out of date). */
export function outdatedFiles(report) {
  return Object.entries(report.files ?? {})
    .filter(([file, result]) => {
      const path = resolve(ROOT, file);
      return !existsSync(path) || readFileSync(path, 'utf8') !== result.source;
    })
    .map(([file]) => file);
}

/** Counts and score of a list of mutants (Stryker's score: detected / valid, ignored left out). */
export function scoreOf(mutants) {
  const n = (s) => mutants.filter((m) => m.status === s).length;
  const counts = {
    mutants: mutants.length,
    ignored: n('Ignored'),
    killed: n('Killed'),
    timeout: n('Timeout'),
    survived: n('Survived'),
    noCoverage: n('NoCoverage'),
    errors: n('CompileError') + n('RuntimeError'),
  };
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  return { ...counts, score: valid ? (100 * detected) / valid : null };
}

/** The survivors (and no-coverage mutants) with their triage entry, if any; and the triage entries no survivor matched. */
export function matchTriage(mutants, entries) {
  const groups = new Map();
  for (const e of entries) {
    const k = keyOf(e);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(e);
  }
  const used = new Set();
  const survivors = mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .map((m) => {
      const group = groups.get(keyOf(m)) ?? [];
      // The nearest line; an entry not taken yet first (two same mutants on one line have an entry each).
      const near = (a, b) => Number(used.has(a)) - Number(used.has(b)) || Math.abs((a.line ?? 0) - m.line) - Math.abs((b.line ?? 0) - m.line);
      const entry = group.length <= 1 ? group[0] : [...group].sort(near)[0];
      if (entry) used.add(entry);
      return { ...m, triage: entry };
    });
  return { survivors, stale: entries.filter((e) => !used.has(e)) };
}

/** `entries`, checked for a known class and its field. */
function checked(entries) {
  for (const e of entries) {
    if (!CLASSES.includes(e.class)) throw new Error(`${e.source}: ${e.file}:${e.line}: class "${e.class}" is not one of ${CLASSES.join(', ')}`);
    if (e.class === 'legal' && !e.spec) throw new Error(`${e.source}: ${e.file}:${e.line}: a legal survivor quotes the spec sentence that allows it ("spec")`);
    if (!e.why) throw new Error(`${e.source}: ${e.file}:${e.line}: says why ("why")`);
  }
  return entries;
}

/** The triage entries of the committed triage files, checked for a known class and its field. */
export function readTriage(files = TRIAGE_FILES) {
  return checked(readEntries([files].flat(), 'survivors')).map(({ source, ...e }) => e);
}

/** The triage written ahead (`pending`) of the committed triage files, checked alike; each keeps its `source` file. */
export function readPending(files = TRIAGE_FILES) {
  return checked(readEntries([files].flat(), 'pending'));
}

/**
 * The survivors of `mutants` with their triage: a `survivors` entry (matchTriage), else
 * the pending entry of the survivor's own line (marked `pending: true`); the `survivors`
 * entries no survivor matched (stale) and the fate of each pending entry (pending.mjs).
 */
export function triageOf(mutants, entries, pending = []) {
  const { survivors, stale } = matchTriage(mutants, entries);
  const others = mutants.filter((m) => m.status !== 'Survived' && m.status !== 'NoCoverage');
  const matched = matchPending([...survivors, ...others], pending);
  return { survivors: matched.mutants.slice(0, survivors.length), stale, fates: matched.fates };
}

/** The hangs of the committed triage files: timed-out mutants whose run can never end, each saying why. */
export function readHangs(files = TRIAGE_FILES) {
  const entries = readEntries([files].flat(), 'hangs');
  for (const e of entries) if (!e.why) throw new Error(`${e.source}: ${e.file}:${e.line}: a hang says why its run can never end ("why")`);
  return entries.map(({ source, ...e }) => e);
}

/** The timed-out mutants, each with the `hangs` entry that explains it (if any), and the entries no timeout matched. */
export function matchHangs(mutants, hangs) {
  const left = new Map();
  for (const h of hangs) left.set(keyOf(h), [...(left.get(keyOf(h)) ?? []), h]);
  const timeouts = mutants
    .filter((m) => m.status === 'Timeout')
    .map((m) => ({ ...m, hang: left.get(keyOf(m))?.shift() }));
  return { timeouts, stale: [...left.values()].flat() };
}

/** The gaps a new test closed: survivors of an earlier run that are killed now (kept for the record). */
export function readClosed(files = TRIAGE_FILES) {
  return readEntries([files].flat(), 'closed').map(({ source, ...e }) => e);
}

const pct = (x) => (x === null ? '  n/a' : `${x.toFixed(1).padStart(5)}%`);

/** Prints a line per folder, the untriaged count and the files whose results are out of date; returns how many of both there are. */
export function printSummary({ folders = FOLDER_NAMES, list = false, stubs = false, write = (s) => process.stdout.write(s), fileOf = incrementalFileOf, triageFiles = TRIAGE_FILES } = {}) {
  const entries = readTriage(triageFiles);
  const pending = readPending(triageFiles);
  const all = [];
  const rows = [];
  const outdated = [];
  for (const folder of folders) {
    const file = resolve(ROOT, fileOf(folder));
    if (!existsSync(file)) {
      rows.push(`${folder.padEnd(9)} not run (no ${fileOf(folder)})`);
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const mutants = mutantsOf(report);
    outdated.push(...outdatedFiles(report));
    all.push(...mutants);
    const s = scoreOf(mutants);
    rows.push(
      `${folder.padEnd(9)}${String(s.mutants).padStart(8)}${String(s.ignored).padStart(8)}${String(s.killed).padStart(8)}${String(s.timeout).padStart(8)}` +
        `${String(s.survived).padStart(9)}${String(s.noCoverage).padStart(7)}${String(s.errors).padStart(7)}  ${pct(s.score)}`,
    );
  }
  const { survivors, stale, fates } = triageOf(all, entries, pending);
  const untriaged = survivors.filter((m) => !m.triage);
  const byClass = Object.fromEntries(CLASSES.map((c) => [c, survivors.filter((m) => m.triage?.class === c).length]));
  const total = scoreOf(all);
  const detected = total.killed + total.timeout;
  const realValid = detected + byClass.gap + untriaged.length;
  write(`mutation testing of the mock (Stryker results: ${folders.map(fileOf).join(', ')}; triage: ${TRIAGE_FILE} and test/mutation/triage-<folder>.json)\n`);
  write(`folder    mutants ignored  killed timeout survived no-cov errors   score\n`);
  for (const r of rows) write(`${r}\n`);
  write(`${'all'.padEnd(9)}${String(total.mutants).padStart(8)}${String(total.ignored).padStart(8)}${String(total.killed).padStart(8)}${String(total.timeout).padStart(8)}${String(total.survived).padStart(9)}${String(total.noCoverage).padStart(7)}${String(total.errors).padStart(7)}  ${pct(total.score)}\n`);
  const openGaps = survivors.filter((m) => m.triage?.class === 'gap' && (!m.triage.test || m.triage.test === 'open')).length;
  write(`survivors: ${survivors.length}; triaged ${survivors.length - untriaged.length} (equivalent ${byClass.equivalent}, legal ${byClass.legal}, gap ${byClass.gap}: ${byClass.gap - openGaps} with a new test, ${openGaps} open); untriaged ${untriaged.length}\n`);
  if (pending.length) {
    const n = countFates(fates);
    write(
      `triage written ahead (pending): ${pending.length} entries: ${n.survived} triage a survivor, ${n.killed} name a killed mutant, ${n.duplicate} a survivor triaged already` +
        ` (--adopt-pending moves the first, keeps a killed gap closed by its test under closed, drops the others), ${n.waiting} wait for their mutant's run\n`,
    );
  }
  const hangs = matchHangs(all, readHangs(triageFiles));
  const unexplained = hangs.timeouts.filter((m) => !m.hang);
  write(`timeouts (counted as detected): ${hangs.timeouts.length}; explained as runs that can never end ${hangs.timeouts.length - unexplained.length}; unexplained ${unexplained.length}\n`);
  if (hangs.stale.length) write(`stale hangs entries (match no timeout): ${hangs.stale.length}\n`);
  write(`score without equivalent and legal survivors: ${pct(realValid ? (100 * detected) / realValid : null)}\n`);
  const closed = readClosed(triageFiles);
  const closers = [...new Set(closed.flatMap((c) => String(c.test).replace(/ and \d+ more$/, '').split(', ')))];
  if (closed.length) write(`gaps closed (survivors of an earlier run: killed now by a new test, or gone with a change of design): ${closed.length} (${closers.join(', ')})\n`);
  if (stale.length) write(`stale triage entries (match no survivor): ${stale.length}\n`);
  if (outdated.length) write(`results older than their source (re-run: npm run mutation -- --mutate FILE): ${outdated.join(', ')}\n`);
  if (list) for (const m of untriaged) write(`  ${m.file}:${m.line} ${m.mutator} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)}\n`);
  if (list) for (const m of unexplained) write(`  timeout: ${m.file}:${m.line} ${m.mutator} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)} (re-run with a longer --timeoutMS, or explain why it can never end)\n`);
  if (stubs) {
    const stub = untriaged.map(({ file, line, mutator, replacement, original }) => ({ file, line, mutator, replacement, original, class: '', why: '' }));
    write(`${JSON.stringify(stub, null, 2)}\n`);
  }
  return untriaged.length + unexplained.length + outdated.length;
}

/**
 * `--adopt-pending`: each triage file's pending entries whose mutant survived (in the
 * folders' results) moved to its `survivors`, a killed gap closed by its test to `closed`,
 * the other killed ones and those triaged already dropped, the rest kept (pending.mjs
 * adoptInto). Prints a line per file it rewrote.
 */
export function adoptPending({ files = TRIAGE_FILES, write = (s) => process.stdout.write(s), fileOf = incrementalFileOf } = {}) {
  const all = FOLDER_NAMES.map((f) => resolve(ROOT, fileOf(f))).filter(existsSync).flatMap((f) => mutantsOf(JSON.parse(readFileSync(f, 'utf8'))));
  const { fates } = triageOf(all, readTriage(files), readPending(files));
  for (const f of files) {
    const path = resolve(ROOT, f);
    const mine = fates.filter((x) => x.entry.source === f);
    if (!mine.length) continue;
    writeFileSync(path, `${JSON.stringify(adoptInto(JSON.parse(readFileSync(path, 'utf8')), mine), null, 2)}\n`);
    const n = countFates(mine);
    const closed = mine.filter((x) => x.fate === 'killed' && closedGap(x.entry)).length;
    write(`${f}: ${n.survived} pending entries moved to survivors, ${closed} killed gaps to closed, ${n.killed - closed + n.duplicate} dropped (${n.killed - closed} killed, ${n.duplicate} triaged already), ${n.waiting} still pending\n`);
  }
}

/**
 * `--close-stale`: each triage file's `survivors` entries that no survivor matches,
 * settled (close-stale.mjs): a killed gap to `closed`, the others dropped, those of a
 * file not in the results kept. Prints a line per file it rewrote.
 */
export function closeStale({ files = TRIAGE_FILES, write = (s) => process.stdout.write(s), fileOf = incrementalFileOf } = {}) {
  const all = FOLDER_NAMES.map((f) => resolve(ROOT, fileOf(f))).filter(existsSync).flatMap((f) => mutantsOf(JSON.parse(readFileSync(f, 'utf8'))));
  const { stale } = matchTriage(all, checked(readEntries([files].flat(), 'survivors')));
  const fates = staleFates(all, stale);
  for (const f of files) {
    const mine = fates.filter((x) => x.entry.source === f && x.fate !== 'kept');
    if (!mine.length) continue;
    const path = resolve(ROOT, f);
    writeFileSync(path, `${JSON.stringify(settleInto(JSON.parse(readFileSync(path, 'utf8')), mine), null, 2)}\n`);
    const closed = mine.filter((x) => x.fate === 'closed').length;
    write(`${f}: ${closed} stale gaps killed now, moved to closed; ${mine.length - closed} other stale entries dropped\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = new Set(process.argv.slice(2));
  if (args.has('--adopt-pending')) adoptPending();
  if (args.has('--close-stale')) closeStale();
  const unsettled = printSummary({ list: args.has('--list'), stubs: args.has('--stubs') });
  if (args.has('--strict') && unsettled > 0) process.exitCode = 1;
}
