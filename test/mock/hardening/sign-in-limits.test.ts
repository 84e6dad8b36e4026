/**
 * Finding 4 and 5: sign-in cannot be brute-forced (limits per account and per
 * client address, with a lockout page) nor flooded (a flood of new sign-ins from
 * one address evicts no one else's), and no page can be framed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, LOCKOUT_MS } from '../../../mock/oauth/sign-in-limits.js';
import { MAX_PENDING_PER_ADDRESS } from '../../../mock/oauth/pending.js';
import { SIGN_IN_RATE } from '../../../mock/oauth/authorization-endpoint.js';
import { PageSession } from './fixtures/page-session.js';

let mock: RunningMock;
beforeEach(async () => {
  mock = await createMock();
});
afterEach(async () => {
  await mock.close();
});

const user = (i = 0) => mock.ctx.world.users[i]!;

/** Signs in with the right password; the session is at the SMS step. */
async function atSmsStep(session: PageSession, i = 0): Promise<void> {
  expect((await session.start()).statusCode).toBe(200);
  expect((await session.post('sign-in', { email: user(i).email, password: user(i).password })).statusCode).toBe(200);
}

describe('Sign-in: attempt limits per account', () => {
  it(`${ACCOUNT_FAILURE_LIMIT} wrong SMS codes across new sign-ins lock the account; even the right code is refused until the lockout passes`, async () => {
    const statuses: number[] = [];
    const session = new PageSession(mock, '10.0.0.1');
    for (let i = 0; statuses.length < ACCOUNT_FAILURE_LIMIT; i++) {
      await atSmsStep(session);
      // Three wrong codes per sign-in, well under the five a sign-in allows.
      for (let k = 0; k < 3 && statuses.length < ACCOUNT_FAILURE_LIMIT; k++) statuses.push((await session.post('sms', { code: '000000' })).statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    // From another address, with the right password and the right code: still locked.
    const other = new PageSession(mock, '10.0.0.2');
    await other.start();
    const locked = await other.post('sign-in', { email: user().email, password: user().password });
    expect(locked.statusCode).toBe(429);
    expect(locked.body).toContain('Sign-in locked');
    expect(locked.body).toContain('15 minutes');
    expect(Number(locked.headers['retry-after'])).toBe(LOCKOUT_MS / 1000);

    // Another account is not affected.
    await atSmsStep(new PageSession(mock, '10.0.0.3'), 1);

    mock.ctx.clock.advance(LOCKOUT_MS);
    const later = new PageSession(mock, '10.0.0.2');
    await atSmsStep(later);
    expect((await later.post('sms', { code: await later.smsCode() })).statusCode).toBe(200);
  });

  it(`${ACCOUNT_FAILURE_LIMIT} wrong passwords lock the account, whatever the number of sign-ins used`, async () => {
    const session = new PageSession(mock, '10.0.0.1');
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      if (i % 4 === 0) await session.start();
      statuses.push((await session.post('sign-in', { email: user().email.toUpperCase(), password: `guess-${i}` })).statusCode);
    }
    expect(statuses).toEqual([...Array(ACCOUNT_FAILURE_LIMIT - 1).fill(401), 429]);
    await session.start();
    expect((await session.post('sign-in', { email: user().email, password: user().password })).statusCode).toBe(429);
  });
});

describe('Sign-in: attempt limits per client address', () => {
  it(`${ADDRESS_FAILURE_LIMIT} wrong answers from one address lock that address, not others`, async () => {
    const attacker = new PageSession(mock, '10.0.0.9');
    let last = 0;
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i++) {
      if (i % 4 === 0) await attacker.start();
      last = (await attacker.post('sign-in', { email: `nobody-${i}@example.invalid`, password: 'x' })).statusCode;
    }
    expect(last).toBe(429);
    await attacker.start();
    const refused = await attacker.post('sign-in', { email: user().email, password: user().password });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('this device');
    await atSmsStep(new PageSession(mock, '10.0.0.10'));
  });
});

describe('Sign-in: a flood cannot evict sign-ins in progress', () => {
  it('1,000 new sign-ins from one address leave another address\'s sign-in intact through consent', async () => {
    const victim = new PageSession(mock, '10.0.0.1');
    await atSmsStep(victim);
    const flood = new PageSession(mock, '10.0.0.66');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const res = await flood.get(`/oauth/authorization?${new URLSearchParams({ client_id: mock.profile.clientId, redirect_uri: mock.profile.redirectUri, state: `f${i}` })}`);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    // The rate limit answers most of the flood; what got through holds at most its own share of sign-ins.
    expect(statuses.get(429)).toBe(1000 - SIGN_IN_RATE.authorization.max);
    expect((await victim.post('sms', { code: await victim.smsCode() })).statusCode).toBe(200);
    const consent = await victim.post('consent', { decision: 'approve' });
    expect(consent.statusCode).toBe(302);
    expect(new URL(String(consent.headers.location)).searchParams.get('code')).toBeTruthy();
  });

  it(`one address keeps at most ${MAX_PENDING_PER_ADDRESS} sign-ins in progress: its own oldest goes first`, async () => {
    const first = new PageSession(mock, '10.0.0.5');
    await first.start();
    const flood = new PageSession(mock, '10.0.0.5');
    for (let i = 0; i < MAX_PENDING_PER_ADDRESS; i++) await flood.start(`s${i}`);
    const res = await first.post('sign-in', { email: user().email, password: user().password });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Sign-in expired');
  });
});

describe('Sign-in: no page can be framed (RFC 9700 §4.16)', () => {
  it('sign-in, SMS, consent, error and callback pages, and API answers carry X-Frame-Options DENY and CSP frame-ancestors \'none\'', async () => {
    const session = new PageSession(mock);
    const pages = [await session.start()];
    pages.push(await session.post('sign-in', { email: user().email, password: user().password }));
    pages.push(await session.post('sms', { code: await session.smsCode() }));
    pages.push(await mock.app.inject({ method: 'GET', url: '/oauth/authorization' }));
    pages.push(await mock.app.inject({ method: 'GET', url: '/callback?code=x&state=y' }));
    pages.push(await mock.app.inject({ method: 'GET', url: '/error' }));
    pages.push(await mock.app.inject({ method: 'GET', url: '/api/users/me' }));
    for (const res of pages) {
      expect(res.headers['x-frame-options']).toBe('DENY');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`form-action 'self' ${new URL(mock.profile.redirectUri).origin}`);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('Sign-in: a coarse rate limit on the forms', () => {
  it(`more than ${SIGN_IN_RATE.forms.max} form posts a minute from one address get a 429 page`, async () => {
    const session = new PageSession(mock, '10.0.0.77');
    await session.start();
    let last = { statusCode: 0, body: '' };
    for (let i = 0; i <= SIGN_IN_RATE.forms.max; i++) last = await session.post('consent', { decision: 'approve' });
    expect(last.statusCode).toBe(429);
    expect(last.body).toContain('Too many requests');
  });
});
