/**
 * The lockconf command line (interfaces.md §2):
 *   conformance [--target FILE] [--only PATTERN…] [--seed N] [--out DIR] [--expect FILE] [--list] [--no-allure] [--no-sign-in] [--allow-incomplete]
 *   conformance --receiver URL [--target FILE] [--only PATTERN…] [--out DIR] [--list] (an application's webhook receiver)
 *   mock [--port N] [--host H] [--fault NAME…] [--no-control]
 *   conformance --client [--browser] [--target FILE] [--only …] [--out DIR] [--no-allure] [--allow-incomplete]
 *   mock [--port N] [--host H] [--fault NAME…] [--no-control] [--grade] [--redirect-uri URL] [--jitter [SEED]]
 *   report:serve [--port N]
 *   login --target FILE [--browser] [--no-open]
 *   compare A B [--json] [--html FILE]      (exit 0 no regression, 1 a regression, 2 bad input)
 *   replay DIR [--target FILE] [--out DIR] [--no-allure]   (exit 0 reproduced, 1 differs, 2 cannot replay)
 *   conformance … --certify (key from LOCKCONF_SIGNING_KEY); keygen [--out DIR]; verify DIR [--key PUBLIC-KEY-PEM]
 *   (docs/certification.md)
 *
 * Exit codes of `conformance`: 0 conformant or partial (the whole narrowed or
 * weakened scope passed; also incomplete with --allow-incomplete), 1 not
 * conformant, incomplete, interrupted or interfered, 2 the run could not be
 * carried out (bad profile, bad option, unreachable target, refused
 * credentials, the target's lease held by another run). Secrets come from the
 * profile file or LOCKCONF_* variables, never from argv.
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { isLockconfError } from './run/errors.js';
import { ExpectFileError } from './run/expectations.js';
import { SelectionError } from './run/selection.js';
import { EXIT, ROOT, UsageFailure, collect, exitCodeFor, exploreOption, intOption } from './commands/common.js';
import { versionText } from './commands/version.js';
import { lockconfCommand } from './commands/command-style.js';
import type { ConformanceOptions } from './commands/conformance.js';
// The other commands load when they run: a conformance run does not pay for the mock's, login's (playwright) or the server's modules.
import type { LoginCommandOptions } from './commands/login.js';
import type { MockCommandOptions } from './commands/mock.js';
import { CONFORMANCE_HELP, PROGRAM_HELP } from './commands/help.js';
import { COMPARE_HELP, REPLAY_HELP } from './commands/compare-help.js';

export { EXIT, exitCodeFor };

export function buildProgram(run: (code: number) => void): Command {
  const program = new Command('lockconf')
    .description('Conformance test suite for the Lock Access Service')
    .version(versionText(ROOT), '-V, --version', 'print the version and the source it runs from')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('conformance')
    .description('run the conformance suites against a target (default: the embedded mock)')
    .option('--target <file>', 'target profile (JSON); LOCKCONF_* variables override its fields')
    .option('--only <pattern>', 'requirement ID or glob (e.g. WEBHOOK-*); repeatable', collect)
    .option('--seed <n>', 'seed for generated inputs', intOption('--seed', 0, 2 ** 31 - 1))
    .option('--explore <n|duration>', 'explore deeper: N random sequences of operations (200), or as many as fit in a duration (45s, 2m); default 20 and 3 of webhooks (LOCKCONF_EXPLORE)', exploreOption)
    .option('--out <dir>', 'write the results into this directory (reports/latest is left alone)')
    .option('--expect <file>', 'known deviations: failures listed there do not fail the run')
    .option('--list', 'print the requirements and the tests that would run, then exit')
    .option('--no-allure', 'skip the Allure report')
    .option('--allow-incomplete', 'accept an incomplete run (a MUST not tested): exit 0 (default: exit 1)')
    .option('--timings', "print where the run's time went, a phase a line")
    .option('--no-sign-in', 'leave out the sign-in screens, which are driven with Chromium (LOCKCONF_SIGN_IN=off; weakens the run)')
    .addOption(new Option('--strict', 'accepted for compatibility (incomplete exits 1 by default now)').hideHelp())
    .option('--receiver <url>', "test an application's webhook receiver at URL instead (signing values from LOCKCONF_API_KEY, LOCKCONF_WEBHOOK_HEADER, LOCKCONF_WEBHOOK_TOKEN)")
    .option('--client', `grade an application's OAuth client from the grading mock's recording (${lockconfCommand('mock', '--grade')}); --target defaults to .lockconf/mock-target.json`)
    .option('--browser', "with --client: drive the application's pages with Chromium (its forms, CSRF tokens and the buttons of the profile's browser section) instead of plain HTTP")
    .option('--certify', 'make the run folder a signed package (full scope, default strictness; key file from LOCKCONF_SIGNING_KEY): docs/certification.md')
    .addHelpText('after', CONFORMANCE_HELP)
    .action(async (opts: ConformanceOptions & { client?: boolean; certify?: boolean; browser?: boolean }, command: Command) => {
      if (opts.browser && !opts.client) throw new UsageFailure("--browser drives an application's pages: it goes with --client");
      // Loaded only when a run is asked for: --help, --version and the other commands do without
      // the run's modules (the HTTP client, the reporters, vitest's API), about 0.5 s of CPU.
      const { withProvenance } = await import('./commands/certify.js');
      run(await withProvenance(opts, commandLine(command), async () => (opts.client ? (await import('./commands/client.js')).clientCommand(opts) : (await import('./commands/conformance.js')).conformanceCommand(opts))));
    });

  program
    .command('keygen')
    .description('make an Ed25519 key pair for --certify: DIR/signing-key.pem (private, 0600) and DIR/signing-key.pub.pem')
    .option('--out <dir>', 'the folder for the two key files (never overwritten; default ~/.lockconf/keys, outside any clone; a folder in a git work tree that does not ignore it is refused)')
    .action(async (opts: { out?: string }) => run(await (await import('./commands/keygen.js')).keygenCommand(opts)));

  program
    .command('verify')
    .description('check a certified package offline: every file, the signature, the verdict re-derived (exit 0 valid, 1 invalid, 2 could not verify)')
    .argument('<dir>', 'the run folder written by conformance --certify')
    .option('--key <file>', "the signer's published public key (PEM); without it the signer is not vouched for")
    .action(async (dir: string, opts: { key?: string }) => run(await (await import('./commands/verify.js')).verifyCommand(dir, opts)));

  program
    .command('mock')
    .description('run the reference mock alone and print its target profile')
    .option('--port <n>', 'port', intOption('--port', 0, 65535), 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--fault <name>', 'switch on a fault of mock/faults.ts; repeatable', collect)
    .option('--no-control', 'do not serve the control protocol')
    .option('--grade', "record every request of the application's client, for `conformance --client`")
    .option('--redirect-uri <url>', "the registered redirect_uri (your application's callback)")
    .option('--profile-out <file>', 'write the profile (secrets included, mode 0600) to FILE instead of .lockconf/mock-target.json; written once the mock listens, removed when it stops')
    .option('--seed <n>', 'stable identities: the same client ID, secrets, user and lock IDs on every start with this seed', intOption('--seed', 0, 2 ** 31 - 1))
    .option('--credentials <file>', 'stable identities from a JSON file (clientId, clientSecret, apiKey, controlToken, seed)')
    .option('--jitter [seed]', 'deliveries in a random order with random latency (0-300 ms), OAuth and API answers after a random delay (0-25 ms); the seed replays a round (default: a random one, printed)', intOption('--jitter', 0, 2 ** 31 - 1))
    .action(async (opts: MockCommandOptions) => run(await (await import('./commands/mock.js')).mockCommand(opts)));

  program
    .command('report:serve')
    .description('serve reports/ over HTTP on 127.0.0.1')
    .addOption(new Option('--port <n>', 'port').argParser(intOption('--port', 0, 65535)).default(4020))
    .action(async (opts: { port: number }) => run(await (await import('./commands/report-serve.js')).serveCommand(opts)));

  program
    .command('login')
    .description('sign in once as a user of a target without control and store its tokens in the token cache')
    .option('--target <file>', 'target profile (JSON); LOCKCONF_* variables override its fields')
    .option('--browser', "sign in unattended with Chromium, driven by the profile's login section")
    .option('--no-open', 'do not open the authorization URL in a browser (print it only)')
    .action(async (opts: LoginCommandOptions) => run(await (await import('./commands/login.js')).loginCommand(opts)));

  program
    .command('compare')
    .description('what changed between two runs: fixed, regressed, newly tested, newly not tested')
    .argument('<a>', 'the earlier run: its folder or its conformance.json')
    .argument('<b>', 'the later run: its folder or its conformance.json')
    .option('--json', 'print the comparison as JSON instead of text')
    .option('--html <file>', 'also write the comparison as an HTML page')
    .addHelpText('after', COMPARE_HELP)
    .action(async (a: string, b: string, opts: { json?: boolean; html?: string }) => run(await (await import('./commands/compare.js')).compareCommand(a, b, opts)));

  program
    .command('replay')
    .description("run again with a run's recorded mode, scope, seed and settings, then compare the two")
    .argument('<dir>', 'the run folder to replay (or its conformance.json)')
    .option('--target <file>', 'target profile (JSON): needed again for a target other than the embedded mock (secrets are never recorded)')
    .option('--out <dir>', 'write the new run into this directory (default: a new folder under reports/runs/)')
    .option('--no-allure', 'skip the Allure report')
    .addHelpText('after', REPLAY_HELP)
    .action(async (dir: string, opts: { target?: string; out?: string; allure: boolean }) => run(await (await import('./commands/replay.js')).replayCommand(dir, opts)));

  program.addHelpText('after', PROGRAM_HELP);
  return program;
}

/** The arguments after `lockconf` the program was given (commander keeps them as rawArgs: node, script, then these). */
function commandLine(command: Command): string[] {
  const raw = (command.parent as unknown as { rawArgs?: string[] } | null)?.rawArgs;
  return (raw ?? process.argv).slice(2);
}

function explain(err: unknown): string {
  if (isLockconfError(err)) return `${err.code}: ${err.message}`;
  if (err instanceof SelectionError || err instanceof ExpectFileError || err instanceof UsageFailure) return err.message;
  if (err instanceof Error) return `unexpected error: ${err.message}`;
  return String(err);
}

export async function main(argv: string[] = process.argv): Promise<number> {
  // No colour where no person watches a terminal (CI logs, pipes), vitest's output included.
  if (!process.stdout.isTTY && process.env.FORCE_COLOR === undefined && process.env.NO_COLOR === undefined) process.env.NO_COLOR = '1';
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

/** Runs the command line and exits with its code: `node harness/cli.ts …` (below), and bin/lockconf.js from the prebuilt CLI. */
export function runCli(argv: string[] = process.argv): void {
  main(argv).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`lockconf: ${explain(err)}\n`);
      process.exit(EXIT.NOT_CARRIED_OUT);
    },
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) runCli();
