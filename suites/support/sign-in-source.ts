/**
 * Where the sign-in suite (suites/oauth/sign-in-screens.test.ts) gets what a
 * person signing in knows, and the switch that leaves it out of a run.
 *
 * - A real target: the profile's `login` section (docs/target-profile.md): the
 *   selectors, the e-mail address and password (from the environment), the SMS code
 *   (login.sms.codeCommand, run once per SMS step, or login.sms.codeEnv).
 * - A target offering the control extension GET /sign-in/account and /sign-in/sms
 *   (docs/control-protocol-extensions.md; the reference mock does): the account,
 *   the consent page's selectors and the SMS code last sent.
 * - Neither, no Chromium, or LOCKCONF_SIGN_IN=off (`--no-sign-in`): not tested, with why.
 *
 * The password and every SMS code are registered with the redactor before they
 * can reach a message (the HTTP client harvests them from the extension's answers).
 */
import { existsSync } from 'node:fs';
// browser-login.ts loads playwright: imported only once the switch is on (a run without the screens never loads it).
import type { BrowserLoginScript } from '../../harness/sandbox/browser-login.js';

type BrowserLogin = typeof import('../../harness/sandbox/browser-login.js');
import { signInSwitch } from '../../harness/run/sign-in-switch.js';
import { chromiumCandidate } from '../../harness/client/drivers/chromium-path.js';
import type { SuiteContext } from './context.js';

export interface SignInSource {
  script: BrowserLoginScript;
  executablePath: string;
  email: string;
  password: string;
  /** The SMS code of the sign-in that just reached its SMS step. */
  smsCode(): Promise<string>;
}

async function hasLoginSection(file: string): Promise<boolean> {
  try {
    const { readFile } = await import('node:fs/promises');
    const raw = JSON.parse(await readFile(file, 'utf8')) as { login?: unknown } | null;
    return raw !== null && typeof raw === 'object' && raw.login !== undefined;
  } catch {
    return false;
  }
}

async function controlGet(t: SuiteContext, path: string): Promise<{ status: number; json: Record<string, unknown> | null }> {
  const p = t.target.profile;
  const res = await t.http.request({ method: 'GET', url: `${p.controlUrl!.replace(/\/+$/, '')}${path}`, headers: { 'x-control-token': p.controlToken ?? '' } });
  const json = res.json && typeof res.json === 'object' && !Array.isArray(res.json) ? (res.json as Record<string, unknown>) : null;
  return { status: res.status, json };
}

/** From the profile's login section; null when the profile has none. */
async function fromLoginSection(t: SuiteContext, env: NodeJS.ProcessEnv, { loadBrowserScript, smsCode }: BrowserLogin): Promise<Omit<SignInSource, 'executablePath'> | null> {
  const file = env.LOCKCONF_TARGET_FILE;
  if (!file || !(await hasLoginSection(file))) return null;
  const script = await loadBrowserScript(file);
  const email = script.email ?? env[script.emailEnv];
  const password = script.password ?? env[script.passwordEnv];
  if (!email || !password) t.notTested(`the profile's login section gives no ${!email ? `e-mail address (login.email or ${script.emailEnv})` : `password (${script.passwordEnv})`}: the sign-in screens cannot be driven`);
  t.target.redactor.add(password, 'password');
  return {
    script, email, password,
    smsCode: async () => {
      const code = await smsCode(script, env, script.stepTimeoutMs);
      t.target.redactor.add(code, 'sms_code');
      return code;
    },
  };
}

/** From the control extension GET /sign-in/account and /sign-in/sms; null when the target does not offer it. */
async function fromControl(t: SuiteContext, { parseBrowserScript }: BrowserLogin): Promise<Omit<SignInSource, 'executablePath'> | null> {
  if (!t.target.profile.controlUrl) return null;
  const account = await controlGet(t, '/sign-in/account');
  const email = account.json?.email;
  const password = account.json?.password;
  if (account.status !== 200 || typeof email !== 'string' || typeof password !== 'string') return null;
  t.target.redactor.add(password, 'password');
  const selectors = account.json?.selectors;
  const consent = selectors && typeof selectors === 'object' ? (selectors as { consent?: unknown }).consent : undefined;
  const script = parseBrowserScript(consent && typeof consent === 'object' ? { consent } : {}, 'control GET /sign-in/account');
  return {
    script, email, password,
    smsCode: async () => {
      const sms = await controlGet(t, `/sign-in/sms?${new URLSearchParams({ email })}`);
      const code = sms.json?.code;
      if (sms.status !== 200 || typeof code !== 'string' || code === '') {
        throw new Error(`control GET /sign-in/sms answered HTTP ${sms.status} without the code just sent`);
      }
      t.target.redactor.add(code, 'sms_code');
      return code;
    },
  };
}

/** What the suite signs in with; ends the test as not tested when the run cannot drive the screens. */
export async function signInSource(t: SuiteContext, env: NodeJS.ProcessEnv = process.env): Promise<SignInSource> {
  const on = signInSwitch(env);
  if (!on.on) t.notTested(on.why);
  const login = await import('../../harness/sandbox/browser-login.js');
  const source = (await fromLoginSection(t, env, login)) ?? (await fromControl(t, login));
  if (!source) {
    t.notTested('the target offers no way to sign in at its screens: neither a login section in its profile (docs/target-profile.md) nor the control extension GET /sign-in/account (docs/control-protocol-extensions.md)');
  }
  const executablePath = chromiumCandidate(source.script.executablePath, env);
  if (!existsSync(executablePath)) {
    t.notTested(`no Chromium at ${executablePath}: the sign-in screens are driven with Chromium (Debian: apt-get install chromium; or set LOCKCONF_CHROMIUM or login.executablePath)`);
  }
  return { ...source, executablePath };
}
