/**
 * --certify works the same for the other two kinds of run: an application's
 * webhook receiver (--receiver) and its OAuth client (--client). Each run writes
 * its provenance (mode, target identity, secrets as "(set)"), a package that
 * verifies, and holds none of the target's secrets. Both runs at once: they share
 * nothing.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startWebhookReceiver } from '../../../examples/app/receiver.js';
import { generateSigningKeys, type GeneratedKeys } from '../../../harness/certify/keygen.js';
import { verifyPackage } from '../../../harness/certify/verify.js';
import type { ConformanceResult } from '../../../harness/report/result-file.js';
import { cli, ROOT } from '../../support/cli.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { startGradedExample, writeProfile } from '../../client/support/example.js';

let work = '';
let keys: GeneratedKeys;
beforeAll(async () => {
  work = await makeTmpDir('certify-modes');
  keys = await generateSigningKeys(join(work, 'keys'));
});
afterAll(() => removeTmpDir(work));

async function everyText(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) parts.push(await readFile(join(e.parentPath, e.name), 'utf8'));
  return parts.join('\n');
}

describe.concurrent('conformance --certify beyond the service', { timeout: 240_000 }, () => {
  it('--receiver: a certified package of the example receiver, its URL in the provenance, the API key and webhook token never', async ({ expect }) => {
    const apiKey = 'certmode-api-key-5c2e81';
    const token = 'certmode-webhook-token-90ab';
    const receiver = await startWebhookReceiver({ apiKey, header: 'X-Hook', token });
    try {
      const out = join(work, 'receiver');
      const run = await cli(['conformance', '--receiver', receiver.url, '--certify', '--no-allure', '--out', out], {
        LOCKCONF_SIGNING_KEY: keys.privateFile, LOCKCONF_API_KEY: apiKey, LOCKCONF_WEBHOOK_HEADER: 'X-Hook', LOCKCONF_WEBHOOK_TOKEN: token,
      });
      expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(0);
      const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as ConformanceResult;
      expect(result.provenance).toMatchObject({ mode: 'receiver', target: { receiverUrl: receiver.url, mock: false } });
      expect(result.provenance!.settings.filter((s) => s.changed).map((s) => [s.name, s.value])).toEqual(expect.arrayContaining([
        ['LOCKCONF_API_KEY', '(set)'], ['LOCKCONF_WEBHOOK_TOKEN', '(set)'], ['LOCKCONF_WEBHOOK_HEADER', 'X-Hook'], ['--receiver', receiver.url],
      ]));
      expect(result.certificate).toMatchObject({ mode: 'receiver', keyFingerprint: keys.fingerprint });
      const verified = await verifyPackage(out, { root: ROOT, keyFile: keys.publicFile });
      expect(verified.code, verified.lines.join('\n')).toBe(0);
      const text = await everyText(out);
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(token);
    } finally {
      await receiver.close();
    }
  });

  it('--client: a certified grading of the example application, its client ID and profile fingerprint, no secret', async ({ expect }) => {
    const example = await startGradedExample();
    try {
      const target = join(work, 'client-target.json');
      await writeProfile(example, target);
      const out = join(work, 'client');
      const run = await cli(['conformance', '--client', '--target', target, '--certify', '--no-allure', '--out', out], { LOCKCONF_SIGNING_KEY: keys.privateFile });
      expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(0);
      const result = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as ConformanceResult;
      const p = example.profile as { clientId: string; clientSecret: string; apiKey: string; controlToken: string };
      expect(result.provenance).toMatchObject({ mode: 'client', target: { clientId: p.clientId, profileSha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
      const verified = await verifyPackage(out, { root: ROOT, keyFile: keys.publicFile });
      expect(verified.code, verified.lines.join('\n')).toBe(0);
      const text = await everyText(out);
      for (const secret of [p.clientSecret, p.apiKey, p.controlToken]) expect(text).not.toContain(secret);
    } finally {
      await example.close();
    }
  });
});
