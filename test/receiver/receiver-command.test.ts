/**
 * `conformance --receiver URL` stops before any test, with exit 2 and one clear
 * message, when it cannot run: no API key, a receiver nobody answers at.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

/** A loopback port nobody listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

// Two child processes that share nothing: at the same time.
describe.concurrent('conformance --receiver, when it cannot run', { timeout: 60_000 }, () => {
  it('exits 2 naming LOCKCONF_API_KEY when it is not set', async ({ expect }) => {
    const res = await cli(['conformance', '--receiver', 'http://127.0.0.1:9/hook', '--no-allure']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('ERR_PROFILE_INVALID: LOCKCONF_API_KEY is not set');
  });

  it('exits 2 with ERR_TARGET_UNREACHABLE when nothing answers at the URL', async ({ expect }) => {
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    const res = await cli(['conformance', '--receiver', url, '--no-allure'], { LOCKCONF_API_KEY: 'command-test-key-123456' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`ERR_TARGET_UNREACHABLE: receiver unreachable: ${url}`);
    expect(res.stderr).not.toContain('command-test-key-123456');
  });
});
