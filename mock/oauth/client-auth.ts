/**
 * Client authentication at the token endpoint (spec: POST {auth_url}/access_token):
 * client_id and client_secret come from the form body only. An Authorization:
 * Basic header is ignored, whatever it holds, and must not carry them.
 */
import type { MockContext } from '../context.js';
import { sameSecret } from '../secret-compare.js';
import { registeredClient } from './other-clients.js';

export type ClientAuthentication = { ok: true; clientId: string } | { ok: false };

export function authenticateClient(ctx: MockContext, form: Map<string, string>, authorization: string | undefined): ClientAuthentication {
  const basic = parseBasic(authorization);
  const grant = form.get('grant_type');
  let clientId = form.get('client_id');
  let clientSecret = form.get('client_secret');
  // Slice faults: on that grant, or for the credential the Basic header names.
  const basicClient = basic ? (basic.clientId === ctx.credentials.clientId ? 'profile' : 'second') : undefined;
  if ((ctx.faults.has('basic-header-accepted') || ctx.faults.breaks('TOKEN-BASIC-REJECTED', { grant, client: basicClient })) && basic) {
    clientId ??= basic.clientId;
    clientSecret ??= basic.clientSecret;
  }
  if (ctx.faults.has('basic-header-not-ignored') && authorization !== undefined && !basicMatches(ctx, basic)) {
    return { ok: false };
  }
  const basicContent = authorization === undefined ? null : basicMatches(ctx, basic) ? 'real' : basicShape(authorization);
  if (authorization !== undefined && ctx.faults.breaks('TOKEN-BASIC-IGNORED', { grant, 'basic-content': basicContent })) return { ok: false };
  // Only the secret is checked: whatever client_id comes with the profile credential's secret is taken for that
  // credential (a further credential's own request, its own secret with it, is served as before).
  const profileSecret = clientSecret !== undefined && safeEqual(clientSecret, ctx.credentials.clientSecret);
  if ((ctx.faults.has('client-id-unchecked') || ctx.faults.breaks('TOKEN-CLIENT-ID-CHECKED', { grant })) && clientId !== undefined && profileSecret) clientId = ctx.credentials.clientId;
  // The profile's credential or a further one (other-clients.ts): each secret belongs to its own client_id.
  const client = clientId === undefined ? null : registeredClient(ctx, clientId);
  if (clientId === undefined || client === null) return { ok: false };
  if (ctx.faults.has('wrong-secret-accepted') || ctx.faults.breaks('TOKEN-BODY-SECRET-CHECKED', { grant, client: client.primary ? 'profile' : 'second' })) return { ok: true, clientId: client.clientId };
  if (clientSecret === undefined || !safeEqual(clientSecret, client.clientSecret)) return { ok: false };
  return { ok: true, clientId: client.clientId };
}

function basicMatches(ctx: MockContext, basic: { clientId: string; clientSecret: string } | null): boolean {
  return basic !== null && safeEqual(basic.clientId, ctx.credentials.clientId) && safeEqual(basic.clientSecret, ctx.credentials.clientSecret);
}

/** RFC 7617 Basic credentials (RFC 6749 §2.3.1 form-encodes each part), or null. */
function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { clientId: form(decoded.slice(0, colon)), clientSecret: form(decoded.slice(colon + 1)) };
  } catch {
    return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
  }
}

/** What a Basic header that is not the real credentials holds (the slice of TOKEN-BASIC-IGNORED it is on). */
function basicShape(header: string): 'bogus' | 'no-colon' | 'not-base64' | 'empty' | 'non-ascii' {
  const match = /^Basic(?:\s+(.*))?$/is.exec(header.trim());
  if (match === null) return 'bogus'; // another scheme
  const value = (match[1] ?? '').trim();
  if (value === '') return 'empty';
  if (!/^[A-Za-z0-9+/]+=*$/.test(value)) return 'not-base64';
  const bytes = Buffer.from(value, 'base64');
  if (!bytes.includes(0x3a)) return 'no-colon';
  return bytes.some((b) => b > 0x7e) ? 'non-ascii' : 'bogus';
}

/** Constant time, length not leaked (secret-compare.ts). */
function safeEqual(a: string, b: string): boolean {
  return sameSecret(a, b);
}
