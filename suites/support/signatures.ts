/**
 * Judging a captured delivery's X-Signature (spec: Events → Signature):
 *   format:    comma-separated prefix=value elements; t is the timestamp, v the signature;
 *   validity:  HMAC-SHA256 over "<t>.<raw body>" keyed with the API key (hex or base64);
 *   freshness: the timestamp within 5 minutes of the TARGET's clock (it may have been moved).
 * The cryptography is the harness's verifier (harness/wire/signature.ts); the format rule is
 * read here, strictly, because a lenient parser would hide a malformed header. Every legal
 * form of harness/catalog/signature-forms.ts (the list receiver mode sends) passes all three
 * (test/harness/catalog/signature-forms.test.ts).
 */
import type { Delivery } from '../../harness/contracts.js';
import { verifySignature } from '../../harness/wire/signature.js';
import { targetNow, type SuiteContext } from './context.js';

export const TOLERANCE_MS = 5 * 60_000;

export function signatureHeader(d: Delivery): string | null {
  return d.headers['x-signature'] ?? null;
}

/** Every way the header breaks "comma-separated elements of the form prefix=value; t and v". */
export function formatProblems(header: string | null): string[] {
  if (header === null || header.trim() === '') return ['no X-Signature header'];
  const problems: string[] = [];
  const elements = header.split(',').map((e) => e.trim());
  let t = 0;
  let v = 0;
  for (const el of elements) {
    const eq = el.indexOf('=');
    if (eq <= 0 || eq === el.length - 1) {
      problems.push(`element "${el.slice(0, 40)}" is not prefix=value`);
      continue;
    }
    const prefix = el.slice(0, eq);
    const value = el.slice(eq + 1);
    if (prefix === 't') {
      // The form of the timestamp is not fixed: present and non-empty is all the format asks.
      t++;
    } else if (prefix === 'v') {
      v++;
      if (!/^[A-Za-z0-9+/=_-]+$/.test(value)) problems.push(`v value "${value.slice(0, 20)}…" is neither hex nor base64`);
    }
  }
  if (t !== 1) problems.push(`expected exactly one t element, found ${t}`);
  if (v < 1) problems.push('no v element');
  return problems;
}

/** Verdicts in which the HMAC matched (over t as received), whatever the timestamp's age or form. */
export const HMAC_MATCHED = ['ok', 'stale', 'future', 'timestamp-unreadable'] as const;

export function hmacMatched(code: string): boolean {
  return (HMAC_MATCHED as readonly string[]).includes(code);
}

/** HMAC check alone (the timestamp's age is judged separately). */
export function hmacVerdict(t: SuiteContext, d: Delivery) {
  return verifySignature({
    header: signatureHeader(d),
    body: d.rawBody,
    apiKey: t.target.profile.apiKey,
    nowMs: Date.now(),
    toleranceMs: Number.MAX_SAFE_INTEGER,
  });
}

/** Full check, timestamp against the target's clock with the recommended 5-minute tolerance. */
export async function freshnessVerdict(t: SuiteContext, d: Delivery) {
  return verifySignature({
    header: signatureHeader(d),
    body: d.rawBody,
    apiKey: t.target.profile.apiKey,
    nowMs: await targetNow(t),
    toleranceMs: TOLERANCE_MS,
  });
}
