/**
 * The end of the authorization step: the user approves (a code is issued) or
 * cancels. One function for the real consent page and the control protocol's
 * POST /consent, so both redirect the same way.
 */
import type { ConsentOutcome, MockContext, OAuthControl } from '../context.js';
import { approvalRedirect, denialRedirect, redirectSlice, validateAuthorizationRequest, type AuthorizationRequest } from './authorization-request.js';
import type { AuthorizationCodes } from './codes.js';
import type { RefreshTokens } from './refresh-tokens.js';
import { approverRole } from './approver.js';

function withoutCode(location: string): string {
  const url = new URL(location);
  url.searchParams.delete('code');
  return url.toString();
}

export type Decision = 'approve' | 'deny';

/** Where the browser is sent after the user's decision, and with which status. */
export interface Conclusion {
  location: string;
  /** HTTP 302 (spec: Authorization code flow step 3), whatever the decision. */
  status: number;
}

/** The one place the status of the final redirect is chosen (approval-redirect-303, denial-redirect-303). */
function redirectStatus(ctx: MockContext, decision: Decision): number {
  if (decision === 'approve' && ctx.faults.has('approval-redirect-303')) return 303;
  if (decision === 'deny' && ctx.faults.has('denial-redirect-303')) return 303;
  return 302;
}

/** The redirect the browser is sent after the user's decision. */
export function concludeAuthorization(ctx: MockContext, codes: AuthorizationCodes, request: AuthorizationRequest, userId: string, decision: Decision): Conclusion {
  const status = redirectStatus(ctx, decision);
  if (decision === 'deny') return { location: denialRedirect(ctx, request), status };
  const code = codes.issue({ clientId: request.clientId, userId, redirectUri: request.redirectUri });
  const location = approvalRedirect(ctx, request, code);
  // Slice fault: that approver's approval (only owners may approve), that credential's, or one to a registered URI of that
  // shape, redirects with the state but no code.
  if (ctx.faults.anySlice() && ctx.faults.breaks('OAUTH-CODE-ON-APPROVAL', { approver: approverRole(ctx.world, userId), ...redirectSlice(ctx, request) })) return { location: withoutCode(location), status };
  return { location, status };
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
      const conclusion = concludeAuthorization(ctx, deps.codes, validation.request, user.userId, decision);
      return { status: 200, location: conclusion.location, redirectStatus: conclusion.status };
    },
    revokeRefreshToken(refreshToken) {
      return deps.refresh.revoke(refreshToken);
    },
  };
}
