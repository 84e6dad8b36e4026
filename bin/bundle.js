/**
 * Prebuilt JavaScript for lockconf's TypeScript entry points (the command line,
 * and child processes the tests start), so that node runs them without tsx's
 * module hooks on every import (vitest and everything its workers load included).
 *
 * ensureBundle() returns the built entry points, building them first only when
 * there is no build yet or one of its inputs changed since (a file's size and
 * mtime, and its content hash when those differ). The build is esbuild's
 * (bundle, code splitting so lazily imported commands stay lazy, packages left
 * external and resolved from node_modules at run time); every local module keeps
 * the `import.meta.dirname`, `filename` and `url` of its source file, so paths
 * computed from them still point into the package.
 *
 * Builds live in <root>/node_modules/.cache/lockconf/: a directory per build,
 * named by its content (<name>-<hash>/), written under a temporary name and
 * renamed when complete, and a record (<name>.json, replaced by a rename) of the
 * current one and its inputs. A reader never sees half a build; launches that
 * build at the same time each publish a complete one. A build older than an hour
 * that is no longer current is removed by the next rebuild.
 *
 * Whatever goes wrong (no esbuild, a cache that cannot be written, a build
 * error) returns null, and the caller runs the TypeScript through tsx instead.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bumped when the record's shape or the build's options change. */
const FORMAT = 1;
const THIS_FILE = fileURLToPath(import.meta.url);
const STALE_MS = 60 * 60 * 1000;

/** Where the builds of the package at `root` live. */
export function cacheDirOf(root) {
  return join(root, 'node_modules', '.cache', 'lockconf');
}

const hashOf = (buf) => createHash('sha256').update(buf).digest('hex');

/** A path as the record keeps it: relative to root when inside it. */
function keyOf(root, abs) {
  const rel = relative(root, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split(sep).join('/');
}

/** The record of the current build when it is complete and none of its inputs changed; else null. */
export function currentBuild(opts) {
  const root = resolve(opts.root);
  const cache = opts.cacheDir ?? cacheDirOf(root);
  let record;
  try {
    record = JSON.parse(readFileSync(join(cache, `${opts.name}.json`), 'utf8'));
  } catch {
    return null;
  }
  if (record?.format !== FORMAT || JSON.stringify(record.entryPoints) !== JSON.stringify(opts.entryPoints)) return null;
  // A build embeds its root's paths (import.meta of the sources): a cache copied to another checkout
  // (a worktree whose node_modules is hard-linked from the first) must not run the first one's sources.
  if (record.root !== root) return null;
  for (const [path, size, mtimeMs, hash] of record.inputs) {
    const abs = resolve(root, path);
    let st;
    try {
      st = statSync(abs);
    } catch {
      return null;
    }
    if (st.size !== size) return null;
    if (st.mtimeMs !== mtimeMs && hashOf(readFileSync(abs)) !== hash) return null; // touched: changed only if its content did
  }
  const entries = {};
  for (const [entry, out] of Object.entries(record.entries)) {
    entries[entry] = join(cache, record.dir, out);
    try {
      statSync(entries[entry]);
    } catch {
      return null;
    }
  }
  return { dir: join(cache, record.dir), entries, built: false };
}

/** `import.meta.dirname`, `.filename` and `.url` of a source file, as string literals; any other use of import.meta is an error. */
export function withSourceMeta(text, file) {
  const values = { dirname: dirname(file), filename: file, url: pathToFileURL(file).href };
  const out = text.replace(/\bimport\.meta\.(dirname|filename|url)\b/g, (_, key) => JSON.stringify(values[key]));
  const left = /\bimport\s*\.\s*meta\b.{0,20}/.exec(out);
  if (left) throw new Error(`${file}: "${left[0]}" would not point at the source file once bundled`);
  return out;
}

const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };

/** Loads every local source itself: records what it read (size, mtime, hash) and fixes import.meta. */
function sourcePlugin(read) {
  return {
    name: 'lockconf-source',
    setup(build) {
      build.onLoad({ filter: /\.(?:[cm]?[jt]s|json)$/ }, (args) => {
        if (args.namespace !== 'file') return undefined;
        const st = statSync(args.path); // before reading: an edit after this changes the mtime, so the next launch looks again
        const buf = readFileSync(args.path);
        read.set(args.path, [st.size, st.mtimeMs, hashOf(buf)]);
        const loader = LOADERS[extname(args.path)];
        return loader === 'json' ? { contents: buf, loader } : { contents: withSourceMeta(buf.toString('utf8'), args.path), loader };
      });
    },
  };
}

/** Removes builds of `name` that are not current and older than an hour, and abandoned temporaries. */
function sweep(cache, name, keep) {
  const now = Date.now();
  for (const entry of readdirSync(cache)) {
    if (entry === keep || !(entry.startsWith(`${name}-`) || entry.startsWith(`.tmp-${name}-`))) continue;
    try {
      if (now - statSync(join(cache, entry)).mtimeMs > STALE_MS) rmSync(join(cache, entry), { recursive: true, force: true });
    } catch {
      // another launch swept it first
    }
  }
}

/** Builds the entry points and publishes the build; throws what went wrong. */
export async function build(opts) {
  const root = resolve(opts.root);
  const cache = opts.cacheDir ?? cacheDirOf(root);
  const esbuild = await import('esbuild');
  const read = new Map();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: opts.entryPoints,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir: join(cache, opts.name), // nothing is written there: the files are published below
    outExtension: { '.js': '.mjs' },
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [sourcePlugin(read)],
  });
  const outdir = join(cache, opts.name);
  const files = result.outputFiles.map((f) => ({ rel: relative(outdir, f.path), contents: f.contents })).sort((a, b) => (a.rel < b.rel ? -1 : 1));
  const digest = createHash('sha256');
  for (const f of files) digest.update(f.rel).update('\0').update(f.contents).update('\0');
  const dir = `${opts.name}-${digest.digest('hex').slice(0, 16)}`;
  const entries = {};
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    // Lazily imported modules are entry points of their own too: the record keeps the ones asked for.
    if (meta.entryPoint && opts.entryPoints.includes(meta.entryPoint)) entries[meta.entryPoint] = relative(outdir, resolve(root, out)).split(sep).join('/');
  }

  // Every input esbuild read, and what else shapes the build: tsconfig.json, package.json, this builder.
  const inputs = [];
  const seen = new Set();
  for (const path of [...Object.keys(result.metafile.inputs).map((p) => resolve(root, p)), join(root, 'tsconfig.json'), join(root, 'package.json'), THIS_FILE]) {
    if (seen.has(path)) continue;
    seen.add(path);
    let rec = read.get(path);
    if (!rec) {
      try {
        const st = statSync(path);
        rec = [st.size, st.mtimeMs, hashOf(readFileSync(path))];
      } catch {
        continue; // no tsconfig.json: nothing to watch
      }
    }
    inputs.push([keyOf(root, path), ...rec]);
  }

  mkdirSync(cache, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = join(cache, `.tmp-${opts.name}-${tag}`);
  for (const f of files) {
    mkdirSync(dirname(join(tmp, f.rel)), { recursive: true });
    writeFileSync(join(tmp, f.rel), f.contents);
  }
  try {
    renameSync(tmp, join(cache, dir));
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    if (err.code !== 'EEXIST' && err.code !== 'ENOTEMPTY') throw err; // else: the same build was published by another launch
  }
  const recordTmp = join(cache, `.tmp-${opts.name}-${tag}.json`);
  writeFileSync(recordTmp, JSON.stringify({ format: FORMAT, root, entryPoints: opts.entryPoints, dir, entries, inputs }));
  renameSync(recordTmp, join(cache, `${opts.name}.json`));
  sweep(cache, opts.name, dir);
  const abs = {};
  for (const [entry, out] of Object.entries(entries)) abs[entry] = join(cache, dir, out);
  return { dir: join(cache, dir), entries: abs, built: true };
}

/**
 * The built entry points of `opts.entryPoints` (paths relative to `opts.root`), built
 * now if needed: { dir, entries: { 'harness/cli.ts': '/…/cli.mjs' }, built }, or null
 * when they cannot be had (`opts.onError` hears why) or LOCKCONF_NO_BUILD=1 asks
 * for none (in `opts.env`, default process.env): the caller then runs the TypeScript
 * through tsx.
 */
export async function ensureBundle(opts) {
  if ((opts.env ?? process.env).LOCKCONF_NO_BUILD === '1') return null;
  try {
    return currentBuild(opts) ?? (await build(opts));
  } catch (err) {
    opts.onError?.(err);
    return null;
  }
}
