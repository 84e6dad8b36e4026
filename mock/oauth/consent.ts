/**
 * The end of the authorization step: the user approves (a code is issued) or
 * cancels. One function for the real consent page and the control protocol's
 * POST /consent, so both redirect the same way.
 */
import type { ConsentOutcome, MockContext, OAuthControl } from '../context.js';
import { approvalRedirect, denialRedirect, validateAuthorizationRequest, type AuthorizationRequest } from './authorization-request.js';
import type { AuthorizationCodes } from './codes.js';
import type { RefreshTokens } from './refresh-tokens.js';

export type Decision = 'approve' | 'deny';

/** The Location the browser is sent to after the user's decision. */
export function concludeAuthorization(ctx: MockContext, codes: AuthorizationCodes, request: AuthorizationRequest, userId: string, decision: Decision): string {
  if (decision === 'deny') return denialRedirect(ctx, request);
  const code = codes.issue({ clientId: request.clientId, userId, redirectUri: request.redirectUri });
  return approvalRedirect(ctx, request, code);
}

/** The control protocol's view of the OAuth side (ctx.oauth). */
export function createOAuthControl(ctx: MockContext, deps: { codes: AuthorizationCodes; refresh: RefreshTokens }): OAuthControl {
  return {
    consent(authorizationUrl, userId, decision): ConsentOutcome {
      let url: URL;
      try {
        url = new URL(authorizationUrl);
      } catch {
        return { status: 422, location: null, error: 'invalid_authorization_url', message: 'authorizationUrl is not an absolute URL' };
      }
      if (!url.pathname.endsWith('/authorization')) {
        return { status: 422, location: null, error: 'invalid_authorization_url', message: 'authorizationUrl is not the authorization endpoint' };
      }
      const validation = validateAuthorizationRequest(ctx, url.searchParams);
      if (!validation.ok) return { status: 422, location: null, error: validation.error, message: validation.message };
      const user = ctx.world.users.find((u) => u.userId === userId);
      if (!user) return { status: 404, location: null, error: 'unknown_user', message: 'no such user' };
      return { status: 200, location: concludeAuthorization(ctx, deps.codes, validation.request, user.userId, decision) };
    },
    revokeRefreshToken(refreshToken) {
      return deps.refresh.revoke(refreshToken);
    },
  };
}
