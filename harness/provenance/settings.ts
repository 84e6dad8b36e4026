/**
 * Every setting that changes what a run does, as the reports list it: each
 * LOCKCONF_* variable the harness reads (its value, its default, whether it was
 * changed) and the options of the command line. Read from the environment the
 * user started lockconf with, before the command sets its own variables. A
 * secret's value is never reported: "(set)". A LOCKCONF_* variable lockconf does
 * not know is listed too, as "(set)" (it might hold anything).
 */
import { DEFAULT_DELIVERY_WAIT_MS, DEFAULT_QUIET_WINDOW_MS, EMBEDDED_MOCK_QUIET_WINDOW_MS } from '../run/weakening.js';
import { DEFAULT_LEASE_WAIT_MS } from '../service/target-lease.js';
import type { RunMode, Setting } from './types.js';

export const SECRET = '(set)';

interface Known {
  /** The default, as text; a function of the run when it depends on it; null: none. */
  default: string | null | ((ctx: SettingsContext) => string | null);
  secret?: boolean;
  /** A structured value whose secrets are blanked (LOCKCONF_MOCK_OPTIONS). */
  shown?: (value: string) => string;
}

export interface SettingsContext {
  mode: RunMode;
  /** The target is the embedded mock (no profile given). */
  embeddedMock: boolean;
}

/** Variables the harness reads that change a run. Internal ones the CLI sets itself (LOCKCONF_RUN_DIR, LOCKCONF_SEED, LOCKCONF_SELECTION…) are options below. */
export const KNOWN_VARIABLES: Readonly<Record<string, Known>> = {
  LOCKCONF_DELIVERY_WAIT_MS: { default: String(DEFAULT_DELIVERY_WAIT_MS) },
  LOCKCONF_QUIET_WINDOW_MS: { default: (ctx) => String(ctx.embeddedMock ? EMBEDDED_MOCK_QUIET_WINDOW_MS : DEFAULT_QUIET_WINDOW_MS) },
  LOCKCONF_PREFLIGHT: { default: '1' },
  LOCKCONF_SIGN_IN: { default: 'on' },
  LOCKCONF_LEASE_WAIT_MS: { default: String(DEFAULT_LEASE_WAIT_MS) },
  LOCKCONF_SEQUENTIAL: { default: '0' },
  LOCKCONF_NO_ALLURE: { default: '0' },
  LOCKCONF_MOCK_OPTIONS: { default: null, shown: blankCredentials },
  LOCKCONF_FS_MODULE_CACHE: { default: '1' },
  LOCKCONF_TEST_TIMEOUT_SCALE: { default: '1' },
  LOCKCONF_TARGET_FILE: { default: (ctx) => (ctx.mode === 'client' ? '.lockconf/mock-target.json' : null) },
  // The profile's fields (docs/target-profile.md): each wins over the --target file.
  LOCKCONF_AUTH_URL: { default: null },
  LOCKCONF_BASE_URL: { default: null },
  LOCKCONF_CLIENT_ID: { default: null },
  LOCKCONF_CLIENT_SECRET: { default: null, secret: true },
  LOCKCONF_API_KEY: { default: null, secret: true },
  LOCKCONF_REDIRECT_URI: { default: null },
  LOCKCONF_CONTROL_URL: { default: null },
  LOCKCONF_CONTROL_TOKEN: { default: null, secret: true },
  LOCKCONF_FIXTURES: { default: null },
  LOCKCONF_CAPTURE: { default: null },
  LOCKCONF_STATUS_CHECK: { default: null },
  LOCKCONF_TOKEN_CACHE: { default: '.lockconf/tokens.json' },
  // A receiver run (harness/receiver/settings.ts) and a client grading (the application's URLs).
  LOCKCONF_RECEIVER_URL: { default: null },
  LOCKCONF_WEBHOOK_HEADER: { default: null },
  LOCKCONF_WEBHOOK_TOKEN: { default: null, secret: true },
  LOCKCONF_CONNECT_URL: { default: null },
  LOCKCONF_REFRESH_URL: { default: null },
  LOCKCONF_ACTION_URLS: { default: null },
  // Sign-in (lockconf login --browser).
  LOCKCONF_LOGIN_EMAIL: { default: null },
  LOCKCONF_LOGIN_PASSWORD: { default: null, secret: true },
  LOCKCONF_SMS_CODE: { default: null, secret: true },
  LOCKCONF_CHROMIUM: { default: null },
  // Certification: the path of the signing key's file (docs/certification.md).
  LOCKCONF_SIGNING_KEY: { default: null, secret: true },
};

/** Set by the CLI for the run it starts (its options' carriers), or build switches: not settings of their own. */
const INTERNAL = new Set(['LOCKCONF_RUN_DIR', 'LOCKCONF_SEED', 'LOCKCONF_SELECTION', 'LOCKCONF_EXPECT_FILE', 'LOCKCONF_RECEIVER_EXPLICIT', 'LOCKCONF_NO_BUILD']);

/** LOCKCONF_MOCK_OPTIONS with its credentials blanked: the faults and switches are the point. */
function blankCredentials(value: string): string {
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>;
    if (parsed && typeof parsed === 'object' && 'credentials' in parsed) parsed.credentials = SECRET;
    return JSON.stringify(parsed);
  } catch {
    return SECRET; // not JSON (the run refuses it): nothing shown
  }
}

/** "https://user:pass@host/…" without the user information. */
export function withoutUserinfo(value: string): string {
  return value.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
}

export interface OptionSetting {
  name: string;
  /** As given; undefined: not given. */
  value: string | undefined;
  default: string | null;
}

export function collectSettings(env: NodeJS.ProcessEnv, ctx: SettingsContext, options: readonly OptionSetting[]): Setting[] {
  const out: Setting[] = [];
  for (const opt of options) {
    const given = opt.value !== undefined;
    out.push({ name: opt.name, value: given ? withoutUserinfo(opt.value!) : null, default: opt.default, changed: given && opt.value !== opt.default, source: given ? 'option' : 'default' });
  }
  for (const [name, known] of Object.entries(KNOWN_VARIABLES)) {
    const raw = env[name];
    const given = raw !== undefined && raw !== '';
    const dflt = typeof known.default === 'function' ? known.default(ctx) : known.default;
    const value = !given ? null : known.secret ? SECRET : known.shown ? known.shown(raw) : withoutUserinfo(raw);
    out.push({ name, value, default: known.secret ? null : dflt, changed: given && (known.secret || raw !== dflt), source: given ? 'env' : 'default' });
  }
  for (const name of Object.keys(env).filter((n) => n.startsWith('LOCKCONF_') && !(n in KNOWN_VARIABLES) && !INTERNAL.has(n)).sort()) {
    if (env[name] === undefined || env[name] === '') continue;
    out.push({ name, value: SECRET, default: null, changed: true, source: 'env' });
  }
  return out;
}
