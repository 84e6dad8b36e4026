/**
 * `mock`: the reference mock alone, its profile written to .lockconf/mock-target.json (or to
 * `--profile-out FILE`) and a short banner printed (never a secret). The file is written
 * atomically once the mock listens, and removed when it stops (when it still holds this
 * mock's profile): a file that exists names a running mock, so parallel mocks each write
 * their own file and CI can wait for it without picking up a stale one.
 *
 * `--seed N` or `--credentials FILE` give it the same identities on every start
 * (client ID, secret, API key, control token, user and lock IDs). The profile file
 * names a second registered redirect URI, a loopback address on the next port, so
 * `npm run login -- --target .lockconf/mock-target.json` can be rehearsed against it.
 */
import { chmod, mkdir, readFile, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { TargetProfile } from '../contracts.js';
import type { RunningMock } from '../../mock/server.js';
import { EXIT, ROOT, UsageFailure, WORK_ROOT, untilStopped } from './common.js';
import { userPath } from './user-paths.js';
import { commandLine, type CommandStyle } from '../../mock/commands.js';
import { commandStyleOf as styleOf } from './command-style.js';
import { randomJitterSeed } from '../../mock/jitter.js';

export interface MockCommandOptions {
  port: number;
  host: string;
  fault?: string[];
  control: boolean;
  /** Stable identities derived from this seed. */
  seed?: number;
  /** A JSON file of fixed identities (clientId, clientSecret, apiKey, controlToken, seed). */
  credentials?: string;
  /** Record every request of the application's client, for `conformance --client`. */
  grade?: boolean;
  /** The registered redirect_uri: the application's callback (the login redirect URI stays registered too). */
  redirectUri?: string;
  /** The jitter variant (mock/jitter.ts): true (a random seed) or the seed. */
  jitter?: boolean | number;
  /** How the mock's pages name lockconf's commands (default: `npm run …`). */
  commandStyle?: CommandStyle;
  /** Where to write the profile (default: .lockconf/mock-target.json of the checkout). */
  profileOut?: string;
}

/** The fields a credentials file may fix; others are ignored, so a saved mock-target.json works too. */
const CredentialsFile = z.object({
  seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  clientId: z.string().min(1).max(256).optional(),
  clientSecret: z.string().min(8).max(1024).optional(),
  apiKey: z.string().min(8).max(1024).optional(),
  controlToken: z.string().min(8).max(1024).optional(),
});
export type CredentialsFileContent = z.infer<typeof CredentialsFile>;

/** Reads and checks a --credentials file; the message names the file and the field, never a value. */
export async function loadCredentialsFile(file: string): Promise<CredentialsFileContent> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageFailure(`--credentials ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageFailure(`--credentials ${file}: not valid JSON`);
  }
  const parsed = CredentialsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageFailure(`--credentials ${file}: ${issue?.path.join('.') || 'the file'} ${issue?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}

/** The port after the mock's, or any free one when the mock's was chosen by the OS. */
async function loginPort(mockPort: number, host: string): Promise<number> {
  if (mockPort > 0 && mockPort < 65535) return mockPort + 1;
  const server = createServer();
  await new Promise<void>((ok, ko) => server.once('error', ko).listen(0, host, ok));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

export interface StartedMock {
  mock: RunningMock;
  /** The profile the command prints and writes: redirectUri is the login redirect URI. */
  profile: TargetProfile;
  loginRedirectUri: string;
}

/** Starts the mock as the command does, without printing or writing anything. */
export async function startCommandMock(opts: MockCommandOptions, log: (line: string) => void = () => {}): Promise<StartedMock> {
  const fixed = opts.credentials ? await loadCredentialsFile(opts.credentials) : {};
  const { seed: fileSeed, ...credentials } = fixed;
  const seed = opts.seed ?? fileSeed;
  const loopbackHost = opts.host.includes(':') ? '[::1]' : '127.0.0.1';
  const loginRedirectUri = `http://${loopbackHost}:${await loginPort(opts.port, loopbackHost === '[::1]' ? '::1' : '127.0.0.1')}/callback`;
  const { createMock } = await import('../../mock/server.js');
  const mock = await createMock({
    port: opts.port,
    host: opts.host,
    faults: opts.fault ?? [],
    control: opts.control,
    ...(opts.grade ? { grade: true } : {}),
    credentials: { ...credentials, loginRedirectUri, ...(opts.redirectUri ? { redirectUri: opts.redirectUri } : {}) },
    ...(seed !== undefined ? { seed } : {}),
    ...(opts.jitter !== undefined && opts.jitter !== false ? { jitter: { seed: opts.jitter === true ? randomJitterSeed() : opts.jitter } } : {}),
    log,
    // One redirectUri for the page and the file: the login redirect URI unless the application's is given.
    profileRedirectUri: opts.redirectUri ?? loginRedirectUri,
    ...(opts.commandStyle ? { commandStyle: opts.commandStyle } : {}),
    developmentServer: true, // someone's development server: a conformance run against it says what it wipes
  });
  return { mock, profile: mock.profile, loginRedirectUri };
}

/** `npm` in the repository, `npx` where lockconf is an installed package (command-style.ts). */
export async function commandStyleOf(root: string): Promise<CommandStyle> {
  return styleOf(root);
}

/**
 * What `mock` prints once it listens: a short banner (addresses, the profile file, how
 * to sign in and to stop). Never a secret: the client secret, API key and control token
 * stay in the profile file (mode 0600), the CI log that keeps this output never sees them.
 */
export function mockBanner(inputs: {
  mock: RunningMock;
  file: string;
  loginRedirectUri: string;
  style: CommandStyle;
  opts: Pick<MockCommandOptions, 'fault' | 'seed' | 'credentials' | 'grade' | 'profileOut'>;
}): string {
  const { mock, file, loginRedirectUri, style, opts } = inputs;
  const signIn = new URL(`${mock.profile.authUrl}/authorization`);
  signIn.searchParams.set('client_id', mock.profile.clientId);
  signIn.searchParams.set('redirect_uri', mock.ctx.credentials.redirectUri);
  signIn.searchParams.set('state', 'try-me');
  const hint = mock.ctx.world.users
    .slice(0, 2)
    .map((u) => `${u.email} / ${u.password}`)
    .join(', ');
  const stable = opts.seed !== undefined || opts.credentials ? ' (stable identities)' : '';
  const cmd = (name: string, args = '') => commandLine(style, name, args);
  return (
    `lockconf mock listening on ${mock.url}${stable}${opts.fault?.length ? ` with faults: ${opts.fault.join(', ')}` : ''}\n`
    + `start page: ${mock.url}/ · API description: ${mock.url}/docs · deliveries: ${mock.url}/deliveries\n`
    + `profile (secrets included, mode 0600): ${file}\n`
    + `  test with: ${cmd('conformance', `--target ${file}`)}\n`
    + `  sign in with: ${cmd('login', `--target ${file}`)} (its redirect comes back to ${loginRedirectUri})\n`
    + `sign in as a fixture user (${hint}) starting at:\n  ${signIn.toString()}\n`
    + (opts.grade ? `grading: every request of client ${mock.profile.clientId} is recorded; grade it with: ${cmd('conformance', opts.profileOut ? `--client --target ${file}` : '--client')}\n` : '')
    + 'Ctrl-C stops it.\n'
  );
}

export async function mockCommand(opts: MockCommandOptions): Promise<number> {
  // Listening for Ctrl-C / SIGTERM from the start: a stop that comes as soon as the ready
  // message is out (or before) ends the mock cleanly instead of killing the process.
  const stopped = untilStopped();
  const style = await commandStyleOf(ROOT);
  const { mock, profile, loginRedirectUri } = await startCommandMock({ ...opts, commandStyle: style }, (line) => process.stderr.write(`mock: ${line}\n`));
  const file = opts.profileOut ? userPath(opts.profileOut) : join(WORK_ROOT, '.lockconf', 'mock-target.json');
  const text = `${JSON.stringify(profile, null, 2)}\n`;
  try {
    if (!opts.profileOut) {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await chmod(dirname(file), 0o700);
    }
    await writeFileAtomic(file, text, { mode: 0o600 });
    await chmod(file, 0o600);
  } catch (err) {
    await mock.close();
    throw new UsageFailure(`${opts.profileOut ? '--profile-out ' : ''}${file}: cannot write the profile there (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }

  // The profile (2,380 lines with its fixtures, and its secrets) is in the file only.
  process.stdout.write(mockBanner({ mock, file, loginRedirectUri, style, opts }));
  await stopped;
  await mock.close();
  await removeOwnProfile(file, text);
  return EXIT.OK;
}

/** Removes the profile file on stop when it still holds this mock's profile (another mock may have written it since). */
export async function removeOwnProfile(file: string, text: string): Promise<void> {
  try {
    if ((await readFile(file, 'utf8')) === text) await unlink(file);
  } catch {
    // Gone already, or unreadable: nothing of ours to remove.
  }
}
