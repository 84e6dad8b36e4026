/**
 * The target profile (interfaces.md §1): read from a JSON file and from
 * LOCKCONF_<FIELD> environment variables (env wins, field by field), then
 * validated with zod. A bad profile stops the run before any test with a
 * message that names the field and where it came from; a secret's value is
 * never echoed.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { TargetProfile } from '../contracts.js';
import { LockconfError } from '../run/errors.js';
import { OTHER_COMMANDS_FIELDS, asMeant, explainTypos, formatPath, mistypedVariables, withoutFarUnknown, withoutNotes, type Issue } from './profile-typos.js';

const FIELDS = [
  'authUrl',
  'baseUrl',
  'clientId',
  'clientSecret',
  'apiKey',
  'redirectUri',
  'controlUrl',
  'controlToken',
  'fixtures',
  'capture',
  'statusCheck',
  'tokenCache',
] as const satisfies ReadonlyArray<keyof TargetProfile>;

type Field = (typeof FIELDS)[number];

/** Fields whose environment variable holds JSON rather than a plain string. */
const JSON_FIELDS: ReadonlySet<Field> = new Set(['fixtures', 'capture', 'statusCheck']);

/** The fields an object of the profile knows, by its path ('' is the profile itself): a key not listed is a typo. */
const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': [...FIELDS, ...OTHER_COMMANDS_FIELDS],
  capture: ['listen', 'publicUrl'],
  statusCheck: ['method', 'path'],
};

function upperSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** authUrl → LOCKCONF_AUTH_URL, … (only these variables are profile fields). */
export const PROFILE_ENV: Record<keyof TargetProfile, string> = Object.fromEntries(
  FIELDS.map((f) => [f, `LOCKCONF_${upperSnake(f)}`]),
) as Record<keyof TargetProfile, string>;

export const PROFILE_DEFAULTS = {
  capture: { listen: '127.0.0.1:0', publicUrl: null },
  statusCheck: { method: 'PUT', path: '/remoteoperate/{lockId}/status' },
  tokenCache: '.lockconf/tokens.json',
} as const;

// ── Schema ──────────────────────────────────────────────────────────────────

/** A string field; `is required` when absent (zod 4 hands the input to the error function). */
function str(what = 'a string') {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : `must be ${what}`) })
    .trim()
    .min(1, { error: 'must not be empty' });
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}

/** An absolute http(s) URL; `base` URLs get paths appended, so they lose trailing slashes and may not carry ?query or #fragment. */
function httpUrl(opts: { base: boolean }) {
  const s = str('an absolute http(s) URL').refine(isHttpUrl, { error: 'must be an absolute http(s) URL' });
  if (!opts.base) return s;
  return s
    .refine((v) => !isHttpUrl(v) || (new URL(v).search === '' && new URL(v).hash === '' && !/[?#]/.test(v)), {
      error: 'must not carry a query or fragment (paths are appended to it)',
    })
    .transform((v) => v.replace(/\/+$/, ''));
}

const optionalString = (what?: string) =>
  str(what)
    .nullish()
    .transform((v) => v ?? null);

const fixtureUser = z.object({
  userId: str(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  phoneNo: z.string().optional(),
});

const fixtureLock = z.object({
  lockId: str(),
  name: z.string().optional(),
  ownerUserId: z.string().optional(),
  keypad: z.boolean().optional(),
  doorSensor: z.boolean().optional(),
  builtInKeypad: z.boolean().optional(),
  bridgeId: z.string().optional(),
  guestUserIds: z.array(z.string()).optional(),
});

const fixtures = z.object(
  { users: z.array(fixtureUser), locks: z.array(fixtureLock) },
  { error: (iss) => (iss.input === undefined ? 'is required' : 'must be an object {"users": [...], "locks": [...]}') },
);

/** host:port, e.g. 127.0.0.1:0, localhost:8080, [::1]:0. */
const LISTEN_RE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

const capture = z
  .object(
    {
      listen: str('"host:port"')
        .refine((v) => LISTEN_RE.test(v) && Number(LISTEN_RE.exec(v)![2]) <= 65535, {
          error: 'must be "host:port" (e.g. 127.0.0.1:0)',
        })
        .default(PROFILE_DEFAULTS.capture.listen),
      publicUrl: httpUrl({ base: true })
        .nullish()
        .transform((v) => v ?? null),
    },
    { error: 'must be an object {"listen": "host:port", "publicUrl": URL | null}' },
  )
  .strict()
  .nullish()
  .transform((v) => v ?? { ...PROFILE_DEFAULTS.capture });

const statusCheck = z
  .object(
    {
      method: str().transform((m) => m.toUpperCase()).refine((m) => /^[A-Z]+$/.test(m), { error: 'must be an HTTP method' }),
      path: str().refine((p) => p.startsWith('/'), { error: 'must start with "/"' }),
    },
    { error: 'must be an object {"method": "PUT", "path": "/remoteoperate/{lockId}/status"}' },
  )
  .strict()
  .nullish()
  .transform((v) => v ?? { ...PROFILE_DEFAULTS.statusCheck });

const profileSchema = z
  .object(
    {
      authUrl: httpUrl({ base: true }),
      baseUrl: httpUrl({ base: true }),
      clientId: str(),
      clientSecret: str(),
      apiKey: str(),
      // Compared exactly by the target (RFC 6749 §3.1.2), so kept as written.
      redirectUri: httpUrl({ base: false }),
      controlUrl: httpUrl({ base: true })
        .nullish()
        .transform((v) => v ?? null),
      controlToken: optionalString(),
      fixtures: fixtures.nullish().transform((v) => v ?? null),
      capture,
      statusCheck,
      tokenCache: optionalString('a file path').transform((v) => v ?? PROFILE_DEFAULTS.tokenCache),
    },
    { error: 'must be a JSON object' },
  )
  .strict();

// ── Validation ──────────────────────────────────────────────────────────────

/** Rules across fields; checked on the raw input too, so one run reports every problem. */
function crossFieldIssues(input: unknown): Array<{ path: PropertyKey[]; message: string }> {
  if (input === null || typeof input !== 'object') return [];
  const p = input as Record<string, unknown>;
  const present = (v: unknown) => v !== undefined && v !== null && v !== '';
  const issues: Array<{ path: PropertyKey[]; message: string }> = [];
  if (present(p.controlUrl) && !present(p.controlToken)) {
    issues.push({ path: ['controlToken'], message: 'is required when controlUrl is given' });
  }
  if (!present(p.controlUrl) && !present(p.fixtures)) {
    issues.push({
      path: ['fixtures'],
      message: 'is required when there is no controlUrl (without the control protocol nothing else supplies them)',
    });
  }
  return issues;
}

function validateWith(input: unknown, originOf: (field: string | undefined) => string): TargetProfile {
  const { input: judged, ignored } = withoutFarUnknown(withoutNotes(input), KNOWN_KEYS);
  if (ignored.length > 0) {
    process.stderr.write(`lockconf: the target profile's ${ignored.join(', ')} ${ignored.length > 1 ? 'are no fields' : 'is no field'} lockconf reads: ignored (a note goes best under a key starting with "_" or "//")\n`);
  }
  const parsed = profileSchema.safeParse(judged);
  const cross = crossFieldIssues(parsed.success ? parsed.data : asMeant(judged, KNOWN_KEYS['']!));
  if (parsed.success && cross.length === 0) return parsed.data as TargetProfile;
  const issues = explainTypos([...(parsed.success ? [] : (parsed.error.issues as Issue[])), ...cross], judged, KNOWN_KEYS);
  const lines = issues.map((iss) => {
    const field = iss.path.length ? formatPath(iss.path) : 'profile';
    const top = typeof iss.path[0] === 'string' ? iss.path[0] : undefined;
    const unknown = iss.message.startsWith('is not a field');
    return unknown ? `unknown field ${field}${iss.message.slice('is not a field'.length)} (${originOf(top)})` : `${field} ${iss.message} (${originOf(top)})`;
  });
  return fail(`invalid target profile: ${lines.join('; ')}`);
}

function fail(message: string): never {
  throw new LockconfError('ERR_PROFILE_INVALID', message);
}

/** Validate a profile object; throws ERR_PROFILE_INVALID naming each bad field. */
export function validateProfile(input: unknown, origin = 'profile'): TargetProfile {
  return validateWith(input, () => origin);
}

// ── Loading ─────────────────────────────────────────────────────────────────

async function readProfileFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    return fail(`cannot read target file ${file} (${code})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    // JSON.parse messages quote the text around the error, which may be a secret: keep only the position.
    const at = /position (\d+)/.exec(String((err as Error).message))?.[1];
    return fail(`target file ${file} is not valid JSON${at ? ` (at position ${at})` : ''}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return fail(`target file ${file} must hold a JSON object`);
  }
  return data as Record<string, unknown>;
}

/** The profile fields set through LOCKCONF_<FIELD> (empty variables count as unset). */
function readProfileEnv(env: NodeJS.ProcessEnv): Partial<Record<Field, unknown>> {
  const out: Partial<Record<Field, unknown>> = {};
  for (const field of FIELDS) {
    const name = PROFILE_ENV[field];
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    if (JSON_FIELDS.has(field)) {
      try {
        out[field] = JSON.parse(raw);
      } catch {
        fail(`${field} is not valid JSON (environment variable ${name})`);
      }
    } else {
      out[field] = raw;
    }
  }
  return out;
}

/**
 * The target profile from `file` and LOCKCONF_<FIELD> variables (env wins).
 * null when there is no file and no LOCKCONF_<FIELD> variable: run the embedded mock.
 */
export async function loadProfile(opts: { file?: string | null; env?: NodeJS.ProcessEnv } = {}): Promise<TargetProfile | null> {
  const env = opts.env ?? process.env;
  const mistyped = mistypedVariables(env, Object.values(PROFILE_ENV));
  if (mistyped.length) fail(mistyped.join('; '));
  const fromEnv = readProfileEnv(env);
  const fromFile = opts.file ? await readProfileFile(opts.file) : null;
  if (!fromFile && Object.keys(fromEnv).length === 0) return null;

  const merged: Record<string, unknown> = { ...(fromFile ?? {}), ...fromEnv };
  const originOf = (field: string | undefined): string => {
    if (field && field in fromEnv) return `environment variable ${PROFILE_ENV[field as Field]}`;
    if (field && fromFile && field in fromFile) return `target file ${opts.file}`;
    const where = [opts.file ? `target file ${opts.file}` : null, field && field in PROFILE_ENV ? PROFILE_ENV[field as Field] : null]
      .filter(Boolean)
      .join(' or ');
    return `set it in ${where || 'the profile'}`;
  };
  return validateWith(merged, originOf);
}
