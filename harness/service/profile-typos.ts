/**
 * What a mistyped profile looks like to a person: an unknown key named with the
 * field it most likely meant ("unknown field controlURL: did you mean
 * controlUrl?"), the issues that typo merely causes left out, and a LOCKCONF_
 * variable one typo away from a profile variable named with it. profile.ts
 * validates; this module explains. No value ever reaches a message.
 */
import { closestNames } from '../run/did-you-mean.js';

/**
 * Fields of the same file that other commands read, each checked there: `login`
 * (login --browser), `connectUrl`, `refreshUrl`, `actionUrls`, `driver`, `browser` (conformance --client),
 * `webhookHeader`, `webhookToken` (conformance --receiver).
 */
export const OTHER_COMMANDS_FIELDS = ['login', 'connectUrl', 'refreshUrl', 'actionUrls', 'driver', 'browser', 'webhookHeader', 'webhookToken'] as const;

/** Notes a file may carry: a key starting with "$", "_" or "//" ("$schema", "_comment", "//") is never a field. */
const NOTE_KEY = /^(\$|_|\/\/)/;

/** fixtures.users[0].userId: a path as the messages write it. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

export type Issue = { path: PropertyKey[]; message: string; code?: string; keys?: string[] };

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The profile without its notes and the fields other commands read (they are not this schema's to judge). */
export function withoutNotes(input: unknown): unknown {
  if (!isRecord(input)) return input;
  const others: ReadonlySet<string> = new Set(OTHER_COMMANDS_FIELDS);
  return Object.fromEntries(Object.entries(input).filter(([k]) => !NOTE_KEY.test(k) && !others.has(k)));
}

/**
 * The input without unknown keys that are close to no field (at the top level and in
 * the objects KNOWN_KEYS names): such keys were always ignored (a profile may carry its
 * own data), so they stay ignored, and are returned for one warning line. A key close to
 * a field is kept, so the strict schema names it as the typo it most likely is.
 */
export function withoutFarUnknown(input: unknown, knownKeys: Readonly<Record<string, readonly string[]>>): { input: unknown; ignored: string[] } {
  if (!isRecord(input)) return { input, ignored: [] };
  const ignored: string[] = [];
  const keep = (obj: Record<string, unknown>, at: string): Record<string, unknown> => {
    const known = knownKeys[at] ?? [];
    return Object.fromEntries(Object.entries(obj).filter(([k]) => {
      if (known.includes(k) || closestNames(k, known).length > 0) return true;
      ignored.push(at ? `${at}.${k}` : k);
      return false;
    }));
  };
  const out = keep(input, '');
  for (const at of Object.keys(knownKeys)) {
    if (at && isRecord(out[at])) out[at] = keep(out[at] as Record<string, unknown>, at);
  }
  return { input: out, ignored };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const p of path) v = isRecord(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/** The field a mistyped key most likely meant, when exactly one is close. */
function meantField(key: string, known: readonly string[]): string | null {
  const names = closestNames(key, known, 2);
  return names.length === 1 ? names[0]! : null;
}

/**
 * Issues as a person reads them: an unknown key is named with the field it most
 * likely meant ("unknown field controlURL: did you mean controlUrl?"), and the
 * issues that typo causes ("controlUrl is required…") are left out; a required
 * field missing beside a key close to it (in the fixtures, which take any key)
 * says which key was found.
 */
export function explainTypos(issues: Issue[], input: unknown, knownKeys: Readonly<Record<string, readonly string[]>>): Issue[] {
  const meant = new Set<string>(); // "path.field" a typo explains
  const out: Issue[] = [];
  for (const iss of issues) {
    if (iss.code !== 'unrecognized_keys') continue;
    const at = formatPath(iss.path);
    const known = knownKeys[at] ?? [];
    for (const key of iss.keys ?? []) {
      const field = meantField(key, known);
      if (field) meant.add(formatPath([...iss.path, field]));
      const prefix = at ? `${at}.` : '';
      const names = closestNames(key, known);
      const hint = names.length
        ? `: did you mean ${names.map((n) => prefix + n).join(' or ')}?`
        : ` (the fields${at ? ` of ${at}` : ''}: ${known.join(', ')}${at ? '' : '; a note goes under a key starting with "_" or "//"'})`;
      out.push({ path: [...iss.path, key], message: `is not a field${hint}` });
      continue;
    }
  }
  for (const iss of issues) {
    if (iss.code === 'unrecognized_keys') continue;
    if (meant.has(formatPath(iss.path))) continue;
    const field = iss.path.at(-1);
    const parent = valueAt(input, iss.path.slice(0, -1));
    if (iss.message === 'is required' && typeof field === 'string' && isRecord(parent)) {
      const near = Object.keys(parent).find((k) => k !== field && meantField(k, [field]) === field);
      if (near) {
        out.push({ ...iss, message: `is required (found ${JSON.stringify(near)}: did you mean ${field}?)` });
        continue;
      }
    }
    out.push(iss);
  }
  return out;
}

/** The input with each unknown top-level key that clearly means a field renamed to it (so rules across fields see what was meant). */
export function asMeant(input: unknown, fields: readonly string[]): unknown {
  if (!isRecord(input)) return input;
  const out: Record<string, unknown> = { ...input };
  for (const [key, value] of Object.entries(input)) {
    if (fields.includes(key)) continue;
    const field = meantField(key, fields);
    if (field && !(field in input)) out[field] = value;
  }
  return out;
}

/** Variables lockconf reads besides the profile's (docs/target-profile.md, and the internal ones): never taken for a typo. */
const OTHER_VARIABLES: ReadonlySet<string> = new Set([
  'LOCKCONF_DELIVERY_WAIT_MS', 'LOCKCONF_SEQUENTIAL', 'LOCKCONF_PREFLIGHT', 'LOCKCONF_NO_ALLURE', 'LOCKCONF_MOCK_OPTIONS', 'LOCKCONF_QUIET_WINDOW_MS', 'LOCKCONF_SIGN_IN',
  'LOCKCONF_LOGIN_EMAIL', 'LOCKCONF_LOGIN_PASSWORD', 'LOCKCONF_SMS_CODE', 'LOCKCONF_CHROMIUM',
  'LOCKCONF_CONNECT_URL', 'LOCKCONF_REFRESH_URL', 'LOCKCONF_ACTION_URLS', 'LOCKCONF_DRIVER', 'LOCKCONF_WEBHOOK_HEADER', 'LOCKCONF_WEBHOOK_TOKEN',
  'LOCKCONF_RECEIVER_URL', 'LOCKCONF_RECEIVER_EXPLICIT', 'LOCKCONF_RUN_DIR', 'LOCKCONF_SEED', 'LOCKCONF_TARGET_FILE', 'LOCKCONF_SELECTION',
  'LOCKCONF_EXPECT_FILE', 'LOCKCONF_NO_BUILD', 'LOCKCONF_TEST_TIMEOUT_SCALE', 'LOCKCONF_EXPLORE', 'LOCKCONF_EXPLORE_PATH',
]);

/**
 * LOCKCONF_* variables that are set, are no variable lockconf reads, and are one
 * typo away from a profile variable (LOCKCONF_CLIENT_SECRETS): each named with the
 * variable it most likely meant. Values are never shown.
 */
export function mistypedVariables(env: NodeJS.ProcessEnv, profileVariables: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of Object.keys(env)) {
    if (!name.startsWith('LOCKCONF_') || profileVariables.includes(name) || OTHER_VARIABLES.has(name) || (env[name] ?? '').trim() === '') continue;
    // Compared without the prefix every name shares, so a short name needs a close match.
    const meant = closestNames(name.slice('LOCKCONF_'.length), profileVariables.map((v) => v.slice('LOCKCONF_'.length)), 2);
    if (meant.length) out.push(`environment variable ${name} is no variable lockconf reads: did you mean ${meant.map((m) => `LOCKCONF_${m}`).join(' or ')}?`);
  }
  return out;
}
