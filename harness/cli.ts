/**
 * The lockconf command line (interfaces.md §2):
 *   conformance [--target FILE] [--only PATTERN…] [--seed N] [--out DIR] [--expect FILE] [--list] [--no-allure] [--strict]
 *   mock [--port N] [--host H] [--fault NAME…] [--no-control]
 *   report:serve [--port N]
 *   login --target FILE [--browser] [--no-open]
 *
 * Exit codes of `conformance`: 0 conformant (also incomplete, unless --strict),
 * 1 not conformant, 2 the run could not be carried out (bad profile, bad
 * option, unreachable target, no verdict written). Secrets come from the
 * profile file or LOCKCONF_* variables, never from argv.
 */
import { randomInt } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import writeFileAtomic from 'write-file-atomic';
import { loadBrowserScript, parseBrowserScript } from './browser-login.js';
import { isLockconfError } from './errors.js';
import { ExpectFileError, loadExpectFile } from './expect-file.js';
import { loadProfile } from './profile.js';
import LockconfReporter, { defaultRunDir } from './reporter.js';
import type { ConformanceResult } from './report/result-file.js';
import { expandSelection, formatList, scanSuites, SelectionError, testNamePattern } from './selection.js';

const ROOT = resolve(import.meta.dirname, '..');

/** Exit codes. */
export const EXIT = { OK: 0, NOT_CONFORMANT: 1, NOT_CARRIED_OUT: 2 } as const;

/** A failure that ends the command with exit code 2 and a message (never a secret). */
class UsageFailure extends Error {}

function intOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export interface ConformanceOptions {
  target?: string;
  only?: string[];
  seed?: number;
  out?: string;
  expect?: string;
  list?: boolean;
  allure: boolean;
  strict?: boolean;
}

/** The exit code a finished run earns. */
export function exitCodeFor(verdict: ConformanceResult['verdict'] | null, strict = false): number {
  if (verdict === null) return EXIT.NOT_CARRIED_OUT;
  if (verdict === 'not-conformant') return EXIT.NOT_CONFORMANT;
  if (verdict === 'incomplete' && strict) return EXIT.NOT_CONFORMANT;
  return EXIT.OK;
}

async function listCommand(opts: ConformanceOptions): Promise<number> {
  const selected = opts.only?.length ? new Set(expandSelection(opts.only)) : null;
  const tests = await scanSuites(ROOT);
  process.stdout.write(`${formatList({ tests, selected })}\n`);
  return EXIT.OK;
}

/** Remove what a previous run left in the directory, so nothing stale is read as this run's result. */
async function clearRunDir(runDir: string): Promise<void> {
  for (const name of ['conformance.json', 'index.html', 'junit.xml', 'run-context.json', 'allure-results', 'allure-report']) {
    await rm(join(runDir, name), { recursive: true, force: true });
  }
}

async function conformanceCommand(opts: ConformanceOptions): Promise<number> {
  if (opts.list) return listCommand(opts);

  // Everything that can be wrong with the invocation is found before vitest starts.
  const only = opts.only?.length ? expandSelection(opts.only) : null;
  const targetFile = opts.target ? resolve(opts.target) : null;
  if (targetFile) {
    try {
      await stat(targetFile);
    } catch {
      throw new UsageFailure(`--target ${opts.target}: no such file`);
    }
  }
  await loadProfile({ file: targetFile, env: process.env }); // throws ERR_PROFILE_INVALID naming the field
  if (process.env.LOCKCONF_MOCK_OPTIONS) {
    try {
      JSON.parse(process.env.LOCKCONF_MOCK_OPTIONS);
    } catch {
      throw new UsageFailure('LOCKCONF_MOCK_OPTIONS is not valid JSON');
    }
  }
  const expectFile = opts.expect ? resolve(opts.expect) : null;
  if (expectFile) await loadExpectFile(expectFile);

  // --no-allure, or LOCKCONF_NO_ALLURE=1 in the environment (CI without the drill-down).
  const allure = opts.allure && process.env.LOCKCONF_NO_ALLURE !== '1';
  const runDir = opts.out ? resolve(opts.out) : defaultRunDir(ROOT);
  await mkdir(runDir, { recursive: true });
  await clearRunDir(runDir);
  const seed = opts.seed ?? randomInt(0, 2 ** 31);

  process.env.LOCKCONF_RUN_DIR = runDir;
  process.env.LOCKCONF_SEED = String(seed);
  if (targetFile) process.env.LOCKCONF_TARGET_FILE = targetFile;
  if (only) process.env.LOCKCONF_SELECTION = JSON.stringify(only);
  else delete process.env.LOCKCONF_SELECTION;
  if (expectFile) process.env.LOCKCONF_EXPECT_FILE = expectFile;
  if (!allure) process.env.LOCKCONF_NO_ALLURE = '1';

  const reporter = new LockconfReporter({
    runDir,
    root: ROOT,
    only,
    seed,
    expectFile,
    allure,
    updateLatest: !opts.out,
  });
  const reporters: unknown[] = [
    ['junit', { suiteName: 'lockconf conformance', includeConsoleOutput: false, addFileAttribute: true }],
  ];
  if (allure) reporters.push(['allure-vitest/reporter', { resultsDir: join(runDir, 'allure-results') }]);
  reporters.push(reporter); // last: the others have written their files when it runs

  process.stdout.write(`lockconf: conformance run → ${runDir} (seed ${seed}${only ? `, ${only.length} requirement(s) selected` : ''})\n`);
  // With --only, vitest loads just the suite files that declare a selected requirement:
  // the test-name filter alone would still import and set up every file.
  const files = only ? await suiteFilesFor(only) : [];
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest(
    'test',
    files,
    {
      root: ROOT,
      config: join(ROOT, 'vitest.config.ts'),
      project: ['conformance'],
      run: true,
      watch: false,
      reporters: reporters as never,
      outputFile: { junit: join(runDir, 'junit.xml') },
      ...(only ? { testNamePattern: testNamePattern(only) } : {}),
    },
  );
  await vitest?.close();

  let verdict: ConformanceResult['verdict'] | null = reporter.result?.verdict ?? null;
  if (!verdict) {
    try {
      verdict = (JSON.parse(await readFile(join(runDir, 'conformance.json'), 'utf8')) as ConformanceResult).verdict;
    } catch {
      verdict = null;
    }
  }
  if (verdict === null) {
    process.stderr.write('lockconf: the run could not be carried out: no conformance.json was written (see the error above).\n');
  } else if (verdict === 'incomplete') {
    process.stdout.write(
      opts.strict
        ? 'lockconf: incomplete: some MUST requirements were not tested (--strict: exit 1).\n'
        : 'lockconf: incomplete: nothing failed, but some MUST requirements were not tested (exit 0; --strict makes this exit 1).\n',
    );
  }
  return exitCodeFor(verdict, opts.strict);
}

/** The suite files (relative paths) that declare a test for one of the IDs; [] (every file) when none does. */
async function suiteFilesFor(ids: readonly string[]): Promise<string[]> {
  const wanted = new Set(ids);
  return [...new Set((await scanSuites(ROOT)).filter((t) => wanted.has(t.id)).map((t) => t.file))];
}

async function mockCommand(opts: { port: number; host: string; fault?: string[]; control: boolean }): Promise<number> {
  const { createMock } = await import('../mock/server.js');
  const mock = await createMock({
    port: opts.port,
    host: opts.host,
    faults: opts.fault ?? [],
    control: opts.control,
    log: (line) => process.stderr.write(`mock: ${line}\n`),
  });
  const dir = join(ROOT, '.lockconf');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = join(dir, 'mock-target.json');
  await writeFileAtomic(file, `${JSON.stringify(mock.profile, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);

  process.stdout.write(`${JSON.stringify(mock.profile, null, 2)}\n`);
  const signIn = new URL(`${mock.profile.authUrl}/authorization`);
  signIn.searchParams.set('client_id', mock.profile.clientId);
  signIn.searchParams.set('redirect_uri', mock.profile.redirectUri);
  signIn.searchParams.set('state', 'try-me');
  const signInUrl = signIn.toString();
  const users = mock.ctx.world.users;
  const hint = users
    .slice(0, 2)
    .map((u) => `${u.email} / ${u.password}`)
    .join(', ');
  process.stderr.write(
    `\nlockconf mock listening on ${mock.url}${opts.fault?.length ? ` with faults: ${opts.fault.join(', ')}` : ''}\n`
      + `profile written to ${file} (use: npm run conformance -- --target ${file})\n`
      + `sign in as a fixture user (${hint}) starting at:\n  ${signInUrl}\n`
      + 'Ctrl-C stops it.\n',
  );
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await mock.close();
  return EXIT.OK;
}

export interface LoginCommandOptions {
  target?: string;
  browser?: boolean;
  open: boolean;
}

/** `login`: sign in once as the fixture user of a target without control; the tokens go to its token cache. */
async function loginCommand(opts: LoginCommandOptions): Promise<number> {
  const file = opts.target ? resolve(opts.target) : null;
  if (file) {
    try {
      await stat(file);
    } catch {
      throw new UsageFailure(`--target ${opts.target}: no such file`);
    }
  }
  try {
    const profile = await loadProfile({ file, env: process.env });
    if (!profile) {
      throw new UsageFailure('login needs a target profile: --target FILE (or LOCKCONF_* variables). The embedded mock needs no sign-in.');
    }
    // The browser script lives in the profile file's `login` section; without a file its defaults (the mock's pages) apply.
    const browserScript = opts.browser ? (file ? await loadBrowserScript(file) : parseBrowserScript(undefined, 'defaults')) : null;
    const { runLogin } = await import('./login.js');
    const result = await runLogin({ profile, open: opts.open, browserScript });
    process.stdout.write(`lockconf: token cache written to ${result.cachePath}\n`);
    return EXIT.OK;
  } catch (err) {
    // The messages of these errors name files and fields, never a secret.
    if (isLockconfError(err, 'ERR_LOGIN') || isLockconfError(err, 'ERR_TOKEN_CACHE') || isLockconfError(err, 'ERR_PROFILE_INVALID')) {
      process.stderr.write(`lockconf login: ${err.message}\n`);
      return EXIT.NOT_CARRIED_OUT;
    }
    throw err;
  }
}

async function serveCommand(opts: { port: number }): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const { default: fastifyStatic } = await import('@fastify/static');
  const reports = join(ROOT, 'reports');
  await mkdir(reports, { recursive: true });
  const app = Fastify({ logger: false });
  await app.register(fastifyStatic, { root: reports, index: ['index.html'], redirect: true, dotfiles: 'ignore' });
  app.get('/', (_req, reply) => reply.redirect('/latest/index.html'));
  const address = await app.listen({ host: '127.0.0.1', port: opts.port });
  process.stdout.write(`serving ${reports} at ${address}/ (latest run: ${address}/latest/index.html). Ctrl-C stops it.\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
  await app.close();
  return EXIT.OK;
}

export function buildProgram(run: (code: number) => void): Command {
  const program = new Command('lockconf')
    .description('Conformance test suite for the Lock Access Service')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('conformance')
    .description('run the conformance suites against a target (default: the embedded mock)')
    .option('--target <file>', 'target profile (JSON); LOCKCONF_* variables override its fields')
    .option('--only <pattern>', 'requirement ID or glob (e.g. WEBHOOK-*); repeatable', collect)
    .option('--seed <n>', 'seed for generated inputs', intOption('--seed', 0, 2 ** 31 - 1))
    .option('--out <dir>', 'write the results into this directory (reports/latest is left alone)')
    .option('--expect <file>', 'known deviations: failures listed there do not fail the run')
    .option('--list', 'print the requirements and the tests that would run, then exit')
    .option('--no-allure', 'skip the Allure report')
    .option('--strict', 'exit 1 when the verdict is incomplete')
    .action(async (opts: ConformanceOptions) => run(await conformanceCommand(opts)));

  program
    .command('mock')
    .description('run the reference mock alone and print its target profile')
    .option('--port <n>', 'port', intOption('--port', 0, 65535), 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--fault <name>', 'switch on a fault of mock/faults.ts; repeatable', collect)
    .option('--no-control', 'do not serve the control protocol')
    .action(async (opts: { port: number; host: string; fault?: string[]; control: boolean }) => run(await mockCommand(opts)));

  program
    .command('report:serve')
    .description('serve reports/ over HTTP on 127.0.0.1')
    .addOption(new Option('--port <n>', 'port').argParser(intOption('--port', 0, 65535)).default(4020))
    .action(async (opts: { port: number }) => run(await serveCommand(opts)));

  program
    .command('login')
    .description('sign in once as a user of a target without control and store its tokens in the token cache')
    .option('--target <file>', 'target profile (JSON); LOCKCONF_* variables override its fields')
    .option('--browser', "sign in unattended with Chromium, driven by the profile's login section")
    .option('--no-open', 'do not open the authorization URL in a browser (print it only)')
    .action(async (opts: LoginCommandOptions) => run(await loginCommand(opts)));

  return program;
}

function explain(err: unknown): string {
  if (isLockconfError(err)) return `${err.code}: ${err.message}`;
  if (err instanceof SelectionError || err instanceof ExpectFileError || err instanceof UsageFailure) return err.message;
  if (err instanceof Error) return `unexpected error: ${err.message}`;
  return String(err);
}

export async function main(argv: string[] = process.argv): Promise<number> {
  let code: number = EXIT.OK;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv);
  } catch (err) {
    const ce = err as { code?: string; exitCode?: number };
    if (typeof ce.code === 'string' && ce.code.startsWith('commander.')) {
      // Help and version end with 0; a usage error with 2 (commander printed the message).
      return ce.code === 'commander.helpDisplayed' || ce.code === 'commander.version' || ce.code === 'commander.help' ? EXIT.OK : EXIT.NOT_CARRIED_OUT;
    }
    process.stderr.write(`lockconf: ${explain(err)}\n`);
    return EXIT.NOT_CARRIED_OUT;
  }
  return code;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`lockconf: ${explain(err)}\n`);
      process.exit(EXIT.NOT_CARRIED_OUT);
    },
  );
}

