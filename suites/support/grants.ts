/**
 * The grant dimension of the token endpoint (spec: POST {auth_url}/access_token,
 * "grant_type | always | authorization_code, client_credentials or
 * refresh_token"): a correct token request of each grant, ready to send, so a
 * rule of the endpoint is checked on every grant, not on the code grant alone.
 */
import { z } from 'zod';
import type { FixtureClient, HttpResponse } from '../../harness/contracts.js';
import { ownCodeExchange, secondClient } from './second-client.js';
import { explain, tokenResponseSchema, type TokenResponse } from '../schemas/token.js';
import type { SuiteContext } from './context.js';
import { prerequisite } from './prerequisite.js';
import { control } from './context.js';
import { codeGrant, freshCode, refreshGrant } from './tokens.js';

export type Grant = 'authorization_code' | 'client_credentials' | 'refresh_token';

/** The capability a grant's request needs from the target. */
const NEEDS: Record<Grant, 'consent' | 'client-credentials' | 'user-token'> = {
  authorization_code: 'consent',
  client_credentials: 'client-credentials',
  refresh_token: 'user-token',
};

function ccGrant(t: SuiteContext): Record<string, string> {
  const p = t.target.profile;
  return { grant_type: 'client_credentials', client_id: p.clientId, client_secret: p.clientSecret };
}

/**
 * Run fn with a correct, unspent token request body of `grant` (client_id and
 * client_secret in it). client_credentials is permitted for the duration of fn
 * and withdrawn afterwards. A target that cannot give the grant ends the slice as
 * not tested.
 */
export async function withGrantRequest<T>(t: SuiteContext, grant: string, fn: (body: Record<string, string>) => Promise<T>): Promise<T> {
  const g = grant as Grant;
  const need = NEEDS[g];
  if (!need) throw new Error(`unknown grant: ${grant}`);
  if (!t.target.has(need)) t.notTested(`the ${grant} grant needs ${need}: ${t.target.whyMissing(need) ?? 'not offered by the target'}`);
  switch (g) {
    case 'authorization_code':
      return fn(codeGrant(t, await freshCode(t)));
    case 'refresh_token':
      return fn(refreshGrant(t, (await t.flows.userSession()).refreshToken));
    case 'client_credentials': {
      await control(t).setClientCredentials(true);
      try {
        return await fn(ccGrant(t));
      } finally {
        await control(t).setClientCredentials(false);
      }
    }
  }
}

/**
 * withGrantRequest as the credential the slice dimension `client` names: 'profile' (the
 * profile's own, as withGrantRequest) or 'second' (GET /fixtures `clients`): its own code
 * (the owner approves it), a refresh token of its own code exchange, or client_credentials
 * with the permission granted to it (and withdrawn afterwards). A second credential that
 * cannot be shown to work leaves the slice not tested (second-client.ts).
 */
export async function withGrantRequestAs<T>(t: SuiteContext, grant: string, client: string, fn: (body: Record<string, string>) => Promise<T>): Promise<T> {
  if (client === 'profile') return withGrantRequest(t, grant, fn);
  const second: FixtureClient = secondClient(t);
  const own = { client_id: second.clientId, client_secret: second.clientSecret };
  const need = NEEDS[grant as Grant];
  if (!need) throw new Error(`unknown grant: ${grant}`);
  if (!t.target.has(need)) t.notTested(`the ${grant} grant needs ${need}: ${t.target.whyMissing(need) ?? 'not offered by the target'}`);
  switch (grant as Grant) {
    case 'authorization_code': {
      const result = await t.flows.authorize({ user: 0, decision: 'approve', clientId: second.clientId, redirectUri: second.redirectUri });
      const code = result.params.get('code');
      if (!code) return t.notTested(`the second credential got no code of its own (status ${result.status})`);
      t.target.redactor.add(code, 'code');
      return fn({ grant_type: 'authorization_code', ...own, code });
    }
    case 'refresh_token': {
      const res = await ownCodeExchange(t, second);
      if (typeof res.json?.refresh_token !== 'string') return t.notTested('the second credential\'s own code exchange gave no refresh_token');
      return fn({ grant_type: 'refresh_token', ...own, refresh_token: res.json.refresh_token });
    }
    case 'client_credentials': {
      await control(t).setClientCredentials(true, second.clientId);
      try {
        return await fn({ grant_type: 'client_credentials', ...own });
      } finally {
        await control(t).setClientCredentials(false, second.clientId);
      }
    }
  }
}

/**
 * The token response a test's next step rests on (its tokens are used, or its fields
 * compared): the fields the spec gives it, of their types ("Token response":
 * access_token a string, expires_in an integer, refresh_token a string). A response of
 * another shape blocks the test by TOKEN-RESPONSE-SHAPE, whose own test judges every
 * grant's response field by field (there, it is a failure); that a token was issued at
 * all (HTTP 2xx with an access_token) stays the caller's own check (tokenIssued).
 * `fields`: only those the step uses (default: every one).
 */
export async function tokenResponseOf(t: SuiteContext, res: HttpResponse, what: string, fields?: ReadonlyArray<keyof TokenResponse>): Promise<TokenResponse> {
  return prerequisite(t, 'TOKEN-RESPONSE-SHAPE', () => {
    const shape = tokenResponseSchema.shape;
    const parsed = fields
      ? z.object(Object.fromEntries(fields.map((f) => [f, shape[f as keyof typeof shape]]))).safeParse(res.json)
      : tokenResponseSchema.safeParse(res.json);
    if (!parsed.success) throw new Error(`${what}: the token response's fields are not of the spec's types: ${explain(parsed)}`);
    return res.json as TokenResponse;
  });
}
