/**
 * The client-mode fields of a target profile that choose and steer the driver
 * (docs/target-profile.md, "Client mode: driving pages"):
 *   "driver": "http" | "chromium"       which driver the probes use (default http; --browser: chromium)
 *   "browser": {                          how Chromium goes through the application's pages
 *     "connect": {"click": C | [C, …]},  on the connectUrl's page, clicked in order until the
 *                                         browser reaches the authorization endpoint
 *     "refresh": {"page": URL, "click": C},           the button that makes the app refresh now
 *     "actions": [{"page": URL, "click": C}, …],       buttons pressed once signed in, in order
 *     "executablePath": "/usr/bin/chromium", "stepTimeoutMs": 10000 }
 * A click C is a string (a CSS selector when it matches on the page, else the
 * accessible name of a button or link), {"selector": CSS} or {"label": name}.
 * `page` defaults to the page the sign-in landed on. Every key is optional; a
 * mistyped key is named with the key it most likely meant.
 */
import { z } from 'zod';
import { didYouMean } from '../../run/did-you-mean.js';
import { LockconfError } from '../../run/errors.js';

const text = z.string().trim().min(1).max(1000);
const loopbackUrl = z.url({ protocol: /^https?$/ }).max(2000);

/** A button or link: a CSS selector, an accessible name, or a string that is either. */
export const clickSchema = z.union([text, z.strictObject({ selector: text }), z.strictObject({ label: text })]);
export type Click = z.infer<typeof clickSchema>;

const pressSchema = z.strictObject({
  /** The page the button is on (default: the page the sign-in landed on). */
  page: loopbackUrl.optional(),
  click: clickSchema,
});
export type Press = z.infer<typeof pressSchema>;

export const browserStepsSchema = z.strictObject({
  connect: z.strictObject({ click: z.union([clickSchema, z.array(clickSchema).min(1).max(10)]) }).optional(),
  refresh: pressSchema.optional(),
  actions: z.array(pressSchema).max(20).optional(),
  /** Chromium binary (default $LOCKCONF_CHROMIUM or /usr/bin/chromium). */
  executablePath: text.optional(),
  /** Milliseconds allowed for each step (a page to load, a button to appear). */
  stepTimeoutMs: z.number().int().min(100).max(120_000).default(10_000),
});
export type BrowserSteps = z.infer<typeof browserStepsSchema>;

export const driverSchema = z.enum(['http', 'chromium']);

/** The keys each object of the section knows, for the did-you-mean of a typo. */
const KNOWN: Record<string, readonly string[]> = {
  browser: ['connect', 'refresh', 'actions', 'executablePath', 'stepTimeoutMs'],
  connect: ['click'],
  refresh: ['page', 'click'],
  actions: ['page', 'click'],
  click: ['selector', 'label'],
};

function where(path: ReadonlyArray<PropertyKey>): string {
  return ['browser', ...path].map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function explain(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const owner = [...issue.path].reverse().find((p): p is string => typeof p === 'string') ?? 'browser';
    const known = KNOWN[owner] ?? [];
    return issue.keys.map((k) => `${where([...issue.path, k])} is not a field${didYouMean(k, known) || ` (the fields: ${known.join(', ')})`}`).join('; ');
  }
  if (issue.code === 'invalid_union' && issue.path.at(-1) === 'click') {
    return `${where(issue.path)} is neither a string nor {"selector": …} nor {"label": …}`;
  }
  return `${where(issue.path)} ${issue.message}`;
}

/** The `browser` section and `driver` of a profile file's JSON; throws ERR_PROFILE_INVALID naming each bad key. */
export function parseDriverFields(raw: Record<string, unknown>, origin: string): { driver: 'http' | 'chromium' | null; browser: BrowserSteps | null } {
  let driver: 'http' | 'chromium' | null = null;
  if (raw.driver !== undefined) {
    const d = driverSchema.safeParse(raw.driver);
    if (!d.success) throw new LockconfError('ERR_PROFILE_INVALID', `invalid profile (${origin}): driver must be "http" or "chromium"${typeof raw.driver === 'string' ? didYouMean(raw.driver, ['http', 'chromium']) : ''}`);
    driver = d.data;
  }
  if (raw.browser === undefined || raw.browser === null) return { driver, browser: null };
  const parsed = browserStepsSchema.safeParse(raw.browser);
  if (!parsed.success) {
    throw new LockconfError('ERR_PROFILE_INVALID', `invalid browser section (${origin}): ${parsed.error.issues.map(explain).join('; ')}`);
  }
  return { driver, browser: parsed.data };
}
