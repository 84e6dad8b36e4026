/**
 * The client-mode fields that choose and steer the driver (docs/target-profile.md,
 * "Client mode: driving pages"): `driver` and the `browser` section. Each is
 * optional; a typo is named with the key it most likely meant; the rest of the
 * profile's checks take them as fields of conformance --client.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseDriverFields } from '../../harness/client/drivers/browser-steps.js';
import { driverChoice } from '../../harness/client/driver-choice.js';
import { loadProfile } from '../../harness/service/profile.js';
import { createMock } from '../../mock/server.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';
import { pagesProfileFields } from './support/pages-example.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeTmpDir(d);
});

const message = (raw: Record<string, unknown>): string => {
  try {
    parseDriverFields(raw, 'p.json');
  } catch (err) {
    return (err as Error).message;
  }
  return '';
};

describe('the browser section', () => {
  it('takes a click as a string, a selector or a label, with defaults for the rest', () => {
    const { driver, browser } = parseDriverFields(pagesProfileFields('http://127.0.0.1:3000'), 'p.json');
    expect(driver).toBe('chromium');
    expect(browser).toEqual({
      connect: { click: 'Connect your locks' },
      refresh: { click: 'button#refresh' },
      actions: [
        { click: 'Register webhook' }, { click: 'Watch my account' }, { click: 'Check the lock\'s status' },
        { click: { label: 'Delete webhook' } }, { click: 'Stop watching my account' },
      ],
      stepTimeoutMs: 10_000,
    });
    expect(parseDriverFields({}, 'p.json')).toEqual({ driver: null, browser: null });
  });

  it('names a mistyped key with the key it most likely meant, at every level', () => {
    expect(message({ browser: { refesh: { click: 'x' } } })).toContain('browser.refesh is not a field: did you mean refresh?');
    expect(message({ browser: { actions: [{ clik: 'x' }] } })).toContain('browser.actions[0].clik is not a field: did you mean click?');
    expect(message({ browser: { connect: { click: { lable: 'Go' } } } })).toContain('browser.connect.click is neither a string nor {"selector": …} nor {"label": …}');
    expect(message({ driver: 'chromum' })).toContain('driver must be "http" or "chromium": did you mean chromium?');
    expect(message({ browser: { refresh: { page: 'not a url', click: 'x' } } })).toContain('browser.refresh.page');
  });

  it('is chosen by LOCKCONF_DRIVER over the profile, and a bad value is named', async () => {
    const dir = await makeTmpDir('browser-profile');
    dirs.push(dir);
    const file = join(dir, 'p.json');
    await writeFile(file, JSON.stringify({ driver: 'chromium' }));
    expect((await driverChoice(file, {})).driver).toBe('chromium');
    expect((await driverChoice(file, { LOCKCONF_DRIVER: 'http' })).driver).toBe('http');
    expect((await driverChoice(null, {})).driver).toBe('http');
    await expect(driverChoice(file, { LOCKCONF_DRIVER: 'chrome' })).rejects.toThrow(/LOCKCONF_DRIVER must be http or chromium/);
  });

  it('is a field of conformance --client to the profile\'s own checks (no warning, no error)', async () => {
    const mock = await createMock({ grade: true });
    try {
      const dir = await makeTmpDir('browser-profile');
      dirs.push(dir);
      const file = join(dir, 'p.json');
      await writeFile(file, JSON.stringify({ ...mock.profile, ...pagesProfileFields('http://127.0.0.1:3000') }));
      const written: string[] = [];
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
        written.push(String(chunk));
        return true;
      });
      try {
        await expect(loadProfile({ file, env: {} })).resolves.toBeTruthy();
      } finally {
        spy.mockRestore();
      }
      expect(written).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
