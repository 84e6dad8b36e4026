/**
 * A conformance run against someone's development mock (`lockconf mock`) resets it,
 * wiping the webhook registrations, tokens and sign-ins made on it by hand. The mock
 * says it is a development server (GET /_control/fixtures: developmentServer), the
 * run warns before its first test, and the mock's log names the run that took it.
 * The embedded mock of a run is nobody's development server: no warning.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommandMock } from '../../../harness/commands/mock.js';
import { prepareRun } from '../../../harness/service/global-setup.js';
import type { RunningMock } from '../../../mock/server.js';
import { targetEnv } from '../../support/target-env.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let dir: string;
let mock: RunningMock;
const mockLog: string[] = [];

beforeAll(async () => {
  dir = await makeTmpDir('dev-server');
  ({ mock } = await startCommandMock({ port: 0, host: '127.0.0.1', control: true }, (line) => mockLog.push(line)));
});
afterAll(async () => {
  await mock?.close();
  await removeTmpDir(dir);
});

const fixtures = async (m: RunningMock) =>
  (await (await fetch(`${m.profile.controlUrl}/fixtures`, { headers: { 'x-control-token': m.profile.controlToken! } })).json()) as { developmentServer?: boolean };

describe('a development mock', () => {
  it('says so in GET /_control/fixtures', async () => {
    expect((await fixtures(mock)).developmentServer).toBe(true);
  });

  it('a run against it warns before its first test that its resets wipe what was made by hand, and the mock logs the run once', async () => {
    const lines: string[] = [];
    const env: NodeJS.ProcessEnv = {
      LOCKCONF_RUN_DIR: join(dir, 'run'),
      ...targetEnv(mock.profile),
      LOCKCONF_CONTROL_URL: mock.profile.controlUrl!,
      LOCKCONF_CONTROL_TOKEN: mock.profile.controlToken!,
      LOCKCONF_TOKEN_CACHE: join(dir, 'no-tokens.json'),
    };
    const { setup, close } = await prepareRun(env, undefined, { log: (line) => lines.push(line) });
    try {
      expect(setup.fixtures?.developmentServer).toBe(true);
      const warning = lines.filter((l) => l.includes('development server'));
      expect(warning).toHaveLength(1);
      expect(warning[0]).toContain(`${mock.profile.controlUrl} is a development server`);
      expect(warning[0]).toContain('webhook registrations, tokens and sign-ins made on it by hand are wiped');
      expect(warning[0]).toContain('npm run conformance');
      for (const secret of [mock.profile.controlToken!, mock.profile.apiKey, mock.profile.clientSecret]) expect(lines.join('\n')).not.toContain(secret);
      const took = mockLog.filter((l) => l.includes('a conformance run'));
      expect(took).toHaveLength(1);
      expect(took[0]).toMatch(/took this mock: its resets wipe the webhook registrations, tokens and sign-ins made on it/);
    } finally {
      await close();
    }
  });

  it('the embedded mock of a run is nobody\'s development server: no warning', async () => {
    const lines: string[] = [];
    const { setup, close } = await prepareRun({ LOCKCONF_RUN_DIR: join(dir, 'embedded') }, undefined, { log: (line) => lines.push(line) });
    try {
      expect(setup.fixtures?.developmentServer).toBeUndefined();
      expect(lines.join('\n')).not.toContain('development server');
    } finally {
      await close();
    }
  });
});
