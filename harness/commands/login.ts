/** `login`: the authorization code flow for a real target, once; the tokens go to its token cache. */
import { stat } from 'node:fs/promises';
import { loadBrowserScript, parseBrowserScript } from '../sandbox/browser-login.js';
import { isLockconfError } from '../run/errors.js';
import { loadProfile } from '../service/profile.js';
import { EXIT, UsageFailure } from './common.js';
import { namedPath, userPath } from './user-paths.js';

export interface LoginCommandOptions {
  target?: string;
  browser?: boolean;
  open: boolean;
}

/** `login`: sign in once as the fixture user of a target without control; the tokens go to its token cache. */
export async function loginCommand(opts: LoginCommandOptions): Promise<number> {
  const file = opts.target ? userPath(opts.target) : null;
  if (file) {
    try {
      await stat(file);
    } catch {
      throw new UsageFailure(`--target ${namedPath(opts.target!, file)}: no such file`);
    }
  }
  try {
    const profile = await loadProfile({ file, env: process.env });
    if (!profile) {
      throw new UsageFailure('login needs a target profile: --target FILE (or LOCKCONF_* variables). The embedded mock needs no sign-in.');
    }
    // The browser script lives in the profile file's `login` section; without a file its defaults (the mock's pages) apply.
    const browserScript = opts.browser ? (file ? await loadBrowserScript(file) : parseBrowserScript(undefined, 'defaults')) : null;
    const { runLogin } = await import('../sandbox/login.js');
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

