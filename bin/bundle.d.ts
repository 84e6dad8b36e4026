/** Types of bin/bundle.js (plain JavaScript, so the launcher runs without a TypeScript loader). */
export interface BundleOptions {
  /** The package's root: entry points and the record's paths are relative to it. */
  root: string;
  /** The build's name in the cache (<name>.json, <name>-<hash>/). */
  name: string;
  /** TypeScript entry points, relative to root (e.g. 'harness/cli.ts'). */
  entryPoints: string[];
  /** Default: <root>/node_modules/.cache/lockconf. */
  cacheDir?: string;
  /** The environment whose LOCKCONF_NO_BUILD=1 asks for no build (ensureBundle returns null); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Hears why no build could be had (ensureBundle then returns null). */
  onError?: (err: unknown) => void;
}

export interface Bundle {
  /** The build's directory. */
  dir: string;
  /** Each entry point (as given) → its built module's absolute path. */
  entries: Record<string, string>;
  /** Built by this call (false: an up-to-date build was found). */
  built: boolean;
}

export function cacheDirOf(root: string): string;
export function currentBuild(opts: BundleOptions): Bundle | null;
export function withSourceMeta(text: string, file: string): string;
export function build(opts: BundleOptions): Promise<Bundle>;
export function ensureBundle(opts: BundleOptions): Promise<Bundle | null>;
