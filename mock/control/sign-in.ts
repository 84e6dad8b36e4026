/**
 * The sign-in screens through the control interface (an additive extension,
 * docs/control-protocol-extensions.md): what a person signing in would know,
 * so a suite can drive the real pages with a browser.
 *   GET /sign-in/account            {"email", "password", "selectors"}: a test account of
 *                                   the fixtures (users[0]) and the consent page's selectors
 *   GET /sign-in/sms?email=ADDRESS  {"code": "123456" | null}: the SMS code last sent to
 *                                   that user's phone (null: none since the last reset)
 * Both answers hold secrets (a password, a one-time code): no cache may keep them.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ControlError, type MockContext } from '../context.js';
import { zodMessage } from './errors.js';

export const SmsQuery = z.strictObject({ email: z.string().min(3).max(320) });

/** Where the consent page shows who asks (the application's name) and what it may do (mock/oauth/pages.ts). */
export const CONSENT_SELECTORS = { requester: '#requester', authorized: '#authorized' } as const;

export function registerSignInControl(app: FastifyInstance, ctx: MockContext): void {
  app.get('/sign-in/account', async (_request, reply) => {
    const user = ctx.world.users[0];
    if (!user) throw new ControlError(422, 'no_account', 'the mock has no user to sign in with');
    reply.header('cache-control', 'no-store');
    return { email: user.email, password: user.password, selectors: { consent: CONSENT_SELECTORS } };
  });

  app.get('/sign-in/sms', async (request, reply) => {
    const parsed = SmsQuery.safeParse(request.query);
    if (!parsed.success) throw new ControlError(400, 'invalid_query', zodMessage(parsed.error));
    if (!ctx.smsOutbox) throw new ControlError(422, 'sign_in_unavailable', 'the OAuth side is not running');
    reply.header('cache-control', 'no-store');
    return { code: ctx.smsOutbox.latest(parsed.data.email) };
  });
}
