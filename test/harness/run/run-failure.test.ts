/**
 * A run that cannot be carried out (a mistyped profile, a bad option) says why at once:
 * the cause is printed before the reports are written (their Allure report takes seconds
 * on a loaded machine), then the line naming where the reports are.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failRun } from '../../../harness/commands/run-failure.js';
import { ROOT, clearRunDir } from '../../../harness/commands/common.js';
import { LockconfError } from '../../../harness/run/errors.js';
import { SERVICE_CATALOG } from '../../../harness/catalog/index.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';

let dir = '';
beforeAll(async () => {
  dir = await makeTmpDir('run-failure');
});
afterAll(() => removeTmpDir(dir));

describe('a run that cannot be carried out', () => {
  it('prints its cause before writing the reports, then where they are; exit 2', async () => {
    const runDir = join(dir, 'out');
    const printed: Array<{ line: string; reportWritten: boolean }> = [];
    const code = await failRun(new LockconfError('ERR_PROFILE_INVALID', 'invalid target profile: unknown field controlURL: did you mean controlUrl?'), {
      runDir, root: ROOT, reportsRoot: dir, allure: false, updateLatest: false, startedAt: new Date().toISOString(), seed: 1, only: null, target: null,
      clear: clearRunDir, catalog: SERVICE_CATALOG,
      print: (line) => printed.push({ line, reportWritten: existsSync(join(runDir, 'conformance.json')) }),
    });
    expect(code).toBe(2);
    expect(printed).toEqual([
      { line: 'lockconf: ERR_PROFILE_INVALID: invalid target profile: unknown field controlURL: did you mean controlUrl?', reportWritten: false },
      { line: `lockconf: the run could not be carried out (exit 2); report: ${join(runDir, 'index.html')}`, reportWritten: true },
    ]);
  });
});
