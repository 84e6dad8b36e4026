/**
 * The optional unattended sign-in of `npm run login`: playwright-core drives
 * Chromium through the target's own pages (e-mail and password, SMS code,
 * consent) as a person would, and hands back the URL the target redirected to.
 *
 * What to fill and click comes from the target profile's `login` section (the
 * defaults fit the reference mock's pages). The password and the SMS code are
 * secrets: read from the environment (or a command), never from argv, and kept
 * out of every message.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { z } from 'zod';
import { LockconfError } from '../run/errors.js';

const selector = z.string().min(1);

/** The profile's `login` section. */
export const browserLoginSchema = z.object({
  /** The user's e-mail address, or the name of the variable holding it. */
  email: z.string().optional(),
  emailEnv: z.string().default('LOCKCONF_LOGIN_EMAIL'),
  /** The variable holding the password (a password in the profile file is accepted too). */
  passwordEnv: z.string().default('LOCKCONF_LOGIN_PASSWORD'),
  password: z.string().optional(),
  signIn: z.object({
    email: selector.default('#email'),
    password: selector.default('#password'),
    submit: selector.default('button[type=submit]'),
  }).prefault({}),
  sms: z.object({
    code: selector.default('#code'),
    submit: selector.default('button[type=submit]'),
    /** The variable holding the SMS code (read once the SMS page shows). */
    codeEnv: z.string().default('LOCKCONF_SMS_CODE'),
    /** A shell command printing the SMS code (run once the SMS page shows); wins over codeEnv. */
    codeCommand: z.string().optional(),
  }).prefault({}),
  consent: z.object({
    approve: selector.default('button[name=decision][value=approve]'),
    deny: selector.default('button[name=decision][value=deny]'),
    /** Where the consent page shows who is requesting access (read by the sign-in suite only; no default). */
    requester: selector.optional(),
    /** Where it shows what is authorized (read by the sign-in suite only; no default). */
    authorized: selector.optional(),
  }).prefault({}),
  /** The answer at the consent step; deny is there to check that a denial stores nothing. */
  decision: z.enum(['approve', 'deny']).default('approve'),
  /** Chromium binary (default $LOCKCONF_CHROMIUM or /usr/bin/chromium). */
  executablePath: z.string().optional(),
  /** Milliseconds allowed for each step. */
  stepTimeoutMs: z.number().int().positive().default(30_000),
});
export type BrowserLoginScript = z.infer<typeof browserLoginSchema>;

/** Validates a `login` section; throws ERR_PROFILE_INVALID naming the bad fields. */
export function parseBrowserScript(input: unknown, origin = 'profile'): BrowserLoginScript {
  const parsed = browserLoginSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => `login.${i.path.join('.')} ${i.message}`).join('; ');
  throw new LockconfError('ERR_PROFILE_INVALID', `invalid login section (${origin}): ${fields}`);
}

/** The `login` section of a target profile file (its other fields are loadProfile's business). */
export async function loadBrowserScript(targetFile: string): Promise<BrowserLoginScript> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(targetFile, 'utf8'));
  } catch (err) {
    throw new LockconfError('ERR_PROFILE_INVALID', `cannot read the login section of ${targetFile}: ${(err as Error).message}`, { cause: err });
  }
  return parseBrowserScript((raw as { login?: unknown } | null)?.login, targetFile);
}

/** Flags for a headless run, also as root in a container: no sandbox, no GPU, nothing phoning home. */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function chromiumPath(script: BrowserLoginScript, env: NodeJS.ProcessEnv): string {
  const path = script.executablePath ?? env.LOCKCONF_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new LockconfError('ERR_LOGIN', `no Chromium at ${path}: install it (Debian: apt-get install chromium) or set login.executablePath / LOCKCONF_CHROMIUM`);
  }
  return path;
}

function required(value: string | undefined, what: string, variable: string): string {
  if (value === undefined || value === '') {
    throw new LockconfError('ERR_LOGIN', `the browser sign-in needs ${what}: set ${variable}`);
  }
  return value;
}

/** The SMS code: from login.sms.codeCommand's output, else from the environment. */
export async function smsCode(script: BrowserLoginScript, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  if (script.sms.codeCommand) {
    let stdout: string;
    try {
      ({ stdout } = await promisify(execFile)('/bin/sh', ['-c', script.sms.codeCommand], { env, timeout: timeoutMs }));
    } catch (err) {
      throw new LockconfError('ERR_LOGIN', `login.sms.codeCommand failed (exit ${(err as { code?: unknown }).code ?? '?'})`, { cause: err });
    }
    const code = stdout.trim().split(/\s+/).at(-1) ?? '';
    return required(code, 'an SMS code', 'login.sms.codeCommand to print it');
  }
  return required(env[script.sms.codeEnv]?.trim(), 'the SMS code', script.sms.codeEnv);
}

export interface BrowserLoginOptions {
  authorizationUrl: string;
  redirectUri: string;
  script: BrowserLoginScript;
  /** approve or deny at the consent step (default: the script's decision). */
  decision?: 'approve' | 'deny';
  /**
   * Answer the redirect inside the browser instead of letting it reach
   * redirectUri (when nothing listens there, e.g. a registered https address).
   */
  interceptRedirect?: boolean;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/**
 * Signs in, verifies by SMS and answers the consent page in headless Chromium;
 * resolves with the URL the target redirected the browser to.
 */
export async function runBrowserLogin(opts: BrowserLoginOptions): Promise<string> {
  const env = opts.env ?? process.env;
  const { script } = opts;
  const log = opts.log ?? (() => {});
  const email = required(script.email ?? env[script.emailEnv], "the user's e-mail address", `login.email or ${script.emailEnv}`);
  const password = required(script.password ?? env[script.passwordEnv], "the user's password", script.passwordEnv);
  const secrets: string[] = [password];
  const scrub = (text: string) => secrets.reduce((t, s) => (s ? t.split(s).join('‹secret›') : t), text);

  const browser = await chromium.launch({ executablePath: chromiumPath(script, env), args: CHROMIUM_ARGS });
  let step = 'opening the authorization URL';
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(script.stepTimeoutMs);
    const isRedirect = (url: URL) => url.href.startsWith(opts.redirectUri.split('?')[0]!);
    let redirected: string | null = null;
    if (opts.interceptRedirect) {
      await page.route((url) => isRedirect(url), async (route) => {
        redirected = route.request().url();
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>lockconf received the sign-in.</p>' });
      });
    }
    await page.goto(opts.authorizationUrl);

    step = 'signing in (e-mail and password)';
    log('browser: signing in');
    await page.fill(script.signIn.email, email);
    await page.fill(script.signIn.password, password);
    await page.click(script.signIn.submit);
    await page.waitForSelector(script.sms.code);

    step = 'entering the SMS code';
    log('browser: entering the SMS code');
    const code = await smsCode(script, env, script.stepTimeoutMs);
    secrets.push(code);
    await page.fill(script.sms.code, code);
    await page.click(script.sms.submit);

    step = 'answering the consent page';
    const decision = opts.decision ?? script.decision;
    const button = decision === 'approve' ? script.consent.approve : script.consent.deny;
    await page.waitForSelector(button);
    log(`browser: ${decision} at the consent page`);
    await Promise.all([page.waitForURL((url) => isRedirect(url)), page.click(button)]);
    return redirected ?? page.url();
  } catch (err) {
    if (err instanceof LockconfError) throw err;
    const first = scrub((err as Error).message).split('\n')[0];
    throw new LockconfError('ERR_LOGIN', `the browser sign-in failed while ${step}: ${first}`);
  } finally {
    await browser.close();
  }
}
