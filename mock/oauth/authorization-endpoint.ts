/**
 * GET {auth_url}/authorization and the pages behind it (spec: Authorization
 * code flow step 2): sign-in (e-mail + password), SMS code (shown on the mock
 * phone and in the mock's log), consent. Approve or Cancel ends in a 302 to
 * the registered redirect_uri. Bad requests get an error page, never a redirect.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import type { MockUser } from '../world.js';
import { errorPage } from '../pages/layout.js';
import { validateAuthorizationRequest } from './authorization-request.js';
import type { AuthorizationCodes } from './codes.js';
import { concludeAuthorization } from './consent.js';
import { clientSlice } from './refresh-tokens.js';
import { sameSecret } from '../secret-compare.js';
import { minutesOf, type Lockout, type SignInLimits } from './sign-in-limits.js';
import { consentPage, phonePage, signInPage, smsPage } from './pages.js';
import type { PendingAuthorization, PendingAuthorizations } from './pending.js';
import { OAUTH_SCHEMAS } from '../docs/oauth-schemas.js';
import { documented } from '../docs/common-schemas.js';

const field = z.string().max(1024);
const SignInForm = z.object({ request: field, email: field, password: field });
const SmsForm = z.object({ request: field, code: z.string().max(32) });
const ConsentForm = z.object({ request: field, decision: z.enum(['approve', 'deny']) });

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** Requests per client address and minute (@fastify/rate-limit), far above what a person or a test suite sends. */
export const SIGN_IN_RATE = {
  authorization: { max: 800, timeWindow: 60_000 },
  forms: { max: 120, timeWindow: 60_000 },
} as const;

/**
 * Slice fault OAUTH-SIGN-IN-WRONG-PASSWORD@credential=…: a wrong password for an
 * account's e-mail signs in as that account (wrong-password), or an e-mail of no
 * account signs in as the first user (unknown-email).
 */
function wronglyTaken(ctx: MockContext, email: string): MockUser | undefined {
  const owner = ctx.world.users.find((u) => u.email.toLowerCase() === email);
  if (owner && ctx.faults.has('sign-in-any-password')) return owner;
  if (ctx.faults.breaks('OAUTH-SIGN-IN-WRONG-PASSWORD', { credential: owner ? 'wrong-password' : 'unknown-email' })) return owner ?? ctx.world.users[0];
  return undefined;
}

function lastDigits(phoneNo: string): string {
  return phoneNo.slice(-4);
}

export function registerAuthorizationEndpoint(
  app: FastifyInstance,
  ctx: MockContext,
  deps: { pending: PendingAuthorizations; codes: AuthorizationCodes; limits: SignInLimits; csrfProtection: (request: FastifyRequest, reply: FastifyReply, done: () => void) => void },
): void {
  const { pending, codes, limits } = deps;
  const csrfFor = (reply: FastifyReply, p: PendingAuthorization) => reply.generateCsrf({ userInfo: p.id });
  // preHandler, not onRequest: the token travels in the form body, parsed by then.
  const guarded = { preHandler: deps.csrfProtection, config: { rateLimit: SIGN_IN_RATE.forms } };

  /** The pending request a form names, at the step it must be at; or an error page. */
  function pendingAt(reply: FastifyReply, id: string, step: PendingAuthorization['step']): PendingAuthorization | null {
    const p = pending.get(id);
    if (!p) {
      sendPage(reply, 400, errorPage('Sign-in expired', 'This sign-in is no longer valid. Go back to the application and start again.'));
      return null;
    }
    // Fault consent-at-sms-step: the consent form is taken while the SMS code is still asked for.
    const skipsSms = step === 'consent' && p.step === 'sms' && ctx.faults.has('consent-at-sms-step');
    if (p.step !== step && !skipsSms) {
      sendPage(reply, 409, errorPage('Out of order', 'This step of the sign-in is not the current one. Go back to the application and start again.'));
      return null;
    }
    return p;
  }

  function tooManyAttempts(reply: FastifyReply): FastifyReply {
    return sendPage(reply, 429, errorPage('Too many attempts', 'This sign-in was stopped after too many failed attempts. Go back to the application and start again.'));
  }

  /** Account or address locked out (sign-in-limits.ts): a 429 page that says for how long. */
  function lockedOut(reply: FastifyReply, lockout: Lockout & { locked: true }): FastifyReply {
    const wait = minutesOf(lockout.retryAfterMs);
    const who = lockout.what === 'account' ? 'this account' : 'this device';
    reply.header('retry-after', String(Math.ceil(lockout.retryAfterMs / 1000)));
    return sendPage(reply, 429, errorPage('Sign-in locked', `There were too many wrong passwords or codes for ${who}. Sign-in is locked for ${wait}; try again after that.`));
  }

  app.get('/authorization', { ...documented(OAUTH_SCHEMAS.authorization), config: { rateLimit: SIGN_IN_RATE.authorization } }, async (request, reply) => {
    const query = new URL(request.url, 'http://mock.invalid').searchParams;
    const validation = validateAuthorizationRequest(ctx, query);
    if (!validation.ok) return sendPage(reply, validation.status, errorPage('Invalid authorization request', validation.message));
    // Fault authz-skips-sign-in, or the slice fault of that credential's requests: no sign-in, a code for the first user at once.
    const skipTo = ctx.faults.has('authz-skips-sign-in') || ctx.faults.breaks('OAUTH-SIGN-IN-STEP', { client: clientSlice(ctx, validation.request.clientId) }) ? ctx.world.users[0] : undefined;
    if (skipTo) return reply.redirect(concludeAuthorization(ctx, codes, validation.request, skipTo.userId, 'approve').location, 302);
    const p = pending.start(validation.request, request.ip);
    if (!p) return sendPage(reply, 429, errorPage('Too many sign-ins', 'Too many sign-ins are in progress right now. Try again in a few minutes.'));
    return sendPage(reply, 200, signInPage({ requestId: p.id, csrf: csrfFor(reply, p) }));
  });

  app.post('/sign-in', { ...guarded, ...documented(OAUTH_SCHEMAS.signIn) }, async (request, reply) => {
    const form = SignInForm.safeParse(request.body);
    if (!form.success) return sendPage(reply, 400, errorPage('Invalid form', 'The sign-in form was incomplete.'));
    const p = pendingAt(reply, form.data.request, 'sign-in');
    if (!p) return reply;
    const email = form.data.email.trim().toLowerCase();
    const before = limits.check(request.ip, email);
    if (before.locked) return lockedOut(reply, before);
    const user: MockUser | undefined = ctx.world.users.find((u) => u.email.toLowerCase() === email && sameSecret(form.data.password, u.password))
      ?? wronglyTaken(ctx, email);
    if (!user) {
      const after = limits.fail(request.ip, email, 'password');
      if (after.locked) return lockedOut(reply, after);
      if (pending.fail(p)) return tooManyAttempts(reply);
      return sendPage(reply, 401, signInPage({ requestId: p.id, csrf: csrfFor(reply, p), email: form.data.email, error: 'E-mail address or password is wrong.' }));
    }
    const code = pending.signedIn(p, user.userId);
    ctx.log(`SMS to ${user.phoneNo} (${user.email}): your Lock Access Service code is ${code}`);
    ctx.smsOutbox?.record(user.email, code);
    return sendPage(reply, 200, smsPage({ requestId: p.id, csrf: csrfFor(reply, p), phoneHint: lastDigits(user.phoneNo) }));
  });

  app.post('/sms', { ...guarded, ...documented(OAUTH_SCHEMAS.sms) }, async (request, reply) => {
    const form = SmsForm.safeParse(request.body);
    if (!form.success) return sendPage(reply, 400, errorPage('Invalid form', 'The SMS form was incomplete.'));
    const p = pendingAt(reply, form.data.request, 'sms');
    if (!p) return reply;
    const user = ctx.world.users.find((u) => u.userId === p.userId);
    if (!user) return sendPage(reply, 400, errorPage('Sign-in expired', 'The account is gone. Start again.'));
    const before = limits.check(request.ip, user.email);
    if (before.locked) return lockedOut(reply, before);
    const codeRight = p.smsCode !== null && (sameSecret(form.data.code.trim(), p.smsCode) || ctx.faults.has('sms-any-code'));
    if (!codeRight) {
      const after = limits.fail(request.ip, user.email, 'sms');
      if (after.locked) return lockedOut(reply, after);
      if (pending.fail(p)) return tooManyAttempts(reply);
      return sendPage(reply, 401, smsPage({ requestId: p.id, csrf: csrfFor(reply, p), phoneHint: lastDigits(user.phoneNo), error: 'That code is not right.' }));
    }
    pending.verified(p);
    const hide = (shown: string) => ctx.faults.has('consent-shows-nothing') || ctx.faults.breaks('OAUTH-CONSENT-SHOWS-REQUEST', { shown, client: clientSlice(ctx, p.request.clientId) });
    return sendPage(reply, 200, consentPage({ requestId: p.id, csrf: csrfFor(reply, p), userName: `${user.firstName} ${user.lastName}`, hideRequester: hide('requester'), hidePermissions: hide('authorized') }));
  });

  app.post('/consent', { ...guarded, ...documented(OAUTH_SCHEMAS.consent) }, async (request, reply) => {
    const form = ConsentForm.safeParse(request.body);
    if (!form.success) return sendPage(reply, 400, errorPage('Invalid form', 'Choose Approve or Cancel.'));
    const p = pendingAt(reply, form.data.request, 'consent');
    if (!p || p.userId === null) return reply;
    pending.finish(p);
    // Slice fault OAUTH-SIGN-IN-SCREENS@decision=…: the page's button of that decision answers as the other one.
    const flipped = ctx.faults.breaks('OAUTH-SIGN-IN-SCREENS', { decision: form.data.decision });
    const decision = flipped ? (form.data.decision === 'approve' ? 'deny' : 'approve') : form.data.decision;
    const conclusion = concludeAuthorization(ctx, codes, p.request, p.userId, decision);
    return reply.redirect(conclusion.location, conclusion.status);
  });

  // The mock phone: shows the SMS a pending sign-in sent.
  app.get('/phone', documented(OAUTH_SCHEMAS.phone), async (request, reply) => {
    const id = new URL(request.url, 'http://mock.invalid').searchParams.get('request');
    const p = pending.get(id);
    const user = p && ctx.world.users.find((u) => u.userId === p.userId);
    if (!p || !user) return sendPage(reply, 404, errorPage('No message', 'There is no SMS for this sign-in.'));
    return sendPage(reply, 200, phonePage({ phoneNo: user.phoneNo, code: p.step === 'sms' ? p.smsCode : null }));
  });
}
