/** `mock`: the reference mock alone, its profile printed and written to .lockconf/mock-target.json. */
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { EXIT, WORK_ROOT, untilStopped } from './common.js';

export async function mockCommand(opts: { port: number; host: string; fault?: string[]; control: boolean; grade?: boolean; redirectUri?: string }): Promise<number> {
  const { createMock } = await import('../../mock/server.js');
  const mock = await createMock({
    port: opts.port,
    host: opts.host,
    faults: opts.fault ?? [],
    control: opts.control,
    ...(opts.grade ? { grade: true } : {}),
    ...(opts.redirectUri ? { credentials: { redirectUri: opts.redirectUri } } : {}),
    log: (line) => process.stderr.write(`mock: ${line}\n`),
  });
  const dir = join(WORK_ROOT, '.lockconf');
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
      + (opts.grade ? `grading: every request of client ${mock.profile.clientId} is recorded; grade it with: npm run conformance -- --client\n` : '')
      + 'Ctrl-C stops it.\n',
  );
  await untilStopped();
  await mock.close();
  return EXIT.OK;
}

