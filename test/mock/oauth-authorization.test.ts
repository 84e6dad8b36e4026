/**
 * The authorization endpoint and its pages (spec: GET {auth_url}/authorization,
 * Authorization code flow), at the HTTP level: sign-in, SMS, consent, CSRF,
 * error pages, state round trip, and the faults of this area.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.js';
import { authorizationPath, consent, useMock, withMock } from '../support/mock.js';

/** A minimal browser over inject: keeps cookies, reads the hidden form fields. */
class PageSession {
  cookies = new Map<string, string>();
  requestId = '';
  csrf = '';
  constructor(readonly mock: RunningMock) {}

  #remember(setCookie: string | string[] | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }

  #readForm(body: string): void {
    this.requestId = /name="request" value="([^"]*)"/.exec(body)?.[1] ?? this.requestId;
    this.csrf = /name="_csrf" value="([^"]*)"/.exec(body)?.[1] ?? this.csrf;
  }

  async get(url: string) {
    const res = await this.mock.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() } });
    this.#remember(res.headers['set-cookie'] as string | string[] | undefined);
    this.#readForm(res.body);
    return res;
  }

  async post(path: string, fields: Record<string, string>, opts: { csrf?: string | null } = {}) {
    const form = new URLSearchParams({ request: this.requestId, ...fields });
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (csrf !== null) form.set('_csrf', csrf);
    const res = await this.mock.app.inject({
      method: 'POST',
      url: `/oauth/${path}`,
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    this.#remember(res.headers['set-cookie'] as string | string[] | undefined);
    this.#readForm(res.body);
    return res;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

async function signInToConsent(mock: RunningMock, state = 'xyz', logs?: string[]): Promise<PageSession> {
  const session = new PageSession(mock);
  const start = await session.get(authorizationPath(mock, { state }));
  expect(start.statusCode).toBe(200);
  const user = mock.ctx.world.users[0]!;
  const sms = await session.post('sign-in', { email: user.email, password: user.password });
  expect(sms.statusCode).toBe(200);
  const phone = await session.get(`/oauth/phone?request=${encodeURIComponent(session.requestId)}`);
  const code = /data-testid="sms-code">(\d{6})</.exec(phone.body)?.[1];
  expect(code).toMatch(/^\d{6}$/);
  if (logs) expect(logs.some((l) => l.includes(code!))).toBe(true);
  const consentPage = await session.post('sms', { code: code! });
  expect(consentPage.statusCode).toBe(200);
  expect(consentPage.body).toContain('Approve');
  return session;
}

describe('authorization pages', () => {
  const logs: string[] = [];
  const ctx = useMock({ log: (line) => logs.push(line) });

  it('sign-in, SMS code, consent and Approve end in a 302 to redirect_uri with code and state', async () => {
    const { mock } = ctx;
    const session = await signInToConsent(mock, 'the state', logs);
    const res = await session.post('consent', { decision: 'approve' });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname).toBe(mock.profile.redirectUri);
    expect(location.searchParams.get('state')).toBe('the state');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('Cancel ends in a 302 with error=access_denied and the state', async () => {
    const session = await signInToConsent(ctx.mock, 'deny me');
    const res = await session.post('consent', { decision: 'deny' });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('deny me');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('the consent page names the application and what it may do, and escapes values', async () => {
    const session = new PageSession(ctx.mock);
    const start = await session.get(authorizationPath(ctx.mock, { state: '<script>alert(1)</script>' }));
    expect(start.body).not.toContain('<script>alert(1)</script>');
    const user = ctx.mock.ctx.world.users[0]!;
    const wrong = await session.post('sign-in', { email: '"><b>x</b>', password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('&quot;&gt;&lt;b&gt;x&lt;/b&gt;');
    await session.post('sign-in', { email: user.email, password: user.password });
    const code = /code is (\d{6})/.exec(logs.at(-1)!)?.[1];
    const page = await session.post('sms', { code: code! });
    expect(page.body).toContain('Reference Client Application');
    expect(page.body).toContain('Lock, unlock and unlatch your locks');
    expect(page.body).toContain(`${user.firstName} ${user.lastName}`);
  });

  it('a wrong password or SMS code re-renders the form with 401; too many attempts stop the sign-in', async () => {
    const session = new PageSession(ctx.mock);
    await session.get(authorizationPath(ctx.mock));
    const user = ctx.mock.ctx.world.users[1]!;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await session.post('sign-in', { email: user.email, password: 'wrong' })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const after = await session.post('sign-in', { email: user.email, password: user.password });
    expect(after.statusCode).toBe(400);
  });

  it('a form without a valid CSRF token, or without the cookie, is refused with 403', async () => {
    const session = new PageSession(ctx.mock);
    await session.get(authorizationPath(ctx.mock));
    const user = ctx.mock.ctx.world.users[0]!;
    expect((await session.post('sign-in', { email: user.email, password: user.password }, { csrf: null })).statusCode).toBe(403);
    expect((await session.post('sign-in', { email: user.email, password: user.password }, { csrf: 'forged' })).statusCode).toBe(403);
    session.cookies.clear();
    expect((await session.post('sign-in', { email: user.email, password: user.password })).statusCode).toBe(403);
  });

  it('a CSRF token of one sign-in does not work for another', async () => {
    const a = new PageSession(ctx.mock);
    await a.get(authorizationPath(ctx.mock));
    const csrfOfA = a.csrf;
    await a.get(authorizationPath(ctx.mock)); // same browser, second request
    const user = ctx.mock.ctx.world.users[0]!;
    const res = await a.post('sign-in', { email: user.email, password: user.password }, { csrf: csrfOfA });
    expect(res.statusCode).toBe(403);
  });

  it('steps out of order are refused, never redirected', async () => {
    const session = new PageSession(ctx.mock);
    await session.get(authorizationPath(ctx.mock));
    const res = await session.post('consent', { decision: 'approve' });
    expect(res.statusCode).toBe(409);
    expect(res.headers.location).toBeUndefined();
  });

  it.each([
    ['an unknown client', { client_id: 'someone-else' }],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/cb' }],
    ['a redirect_uri that only starts like the registered one', { redirect_uri: 'REGISTERED/extra' }],
    ['no client_id', { client_id: null }],
    ['no redirect_uri', { redirect_uri: null }],
    ['no state', { state: null }],
    ['an empty state', { state: '' }],
    ['a state longer than 2048 characters', { state: 'x'.repeat(2049) }],
  ])('%s gets an error page with a 4xx, never a redirect', async (_name, params) => {
    const fixed = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === 'REGISTERED/extra' ? `${ctx.mock.profile.redirectUri}/extra` : v]));
    const res = await ctx.mock.app.inject({ method: 'GET', url: authorizationPath(ctx.mock, fixed) });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('a repeated parameter is refused', async () => {
    const res = await ctx.mock.app.inject({ method: 'GET', url: `${authorizationPath(ctx.mock)}&state=again` });
    expect(res.statusCode).toBe(400);
  });

  it('state comes back byte for byte, whatever it holds (up to 2048 characters)', async () => {
    const state = fc.string({ unit: fc.oneof(fc.constantFrom('&', '=', '+', '%', '#', '?', '/', ' ', '"', "'", '<', '\u0000', '%2B', '%ZZ'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 2048 })
      .filter((s) => s.length <= 2048);
    await fc.assert(
      fc.asyncProperty(state, async (value) => {
        const result = await consent(ctx.mock, { url: ctx.mock.url + authorizationPath(ctx.mock, { state: value }) });
        expect(result.status).toBe(200);
        expect(new URL(result.location!).searchParams.get('state')).toBe(value);
      }),
      { numRuns: 150 },
    );
  });

  it('the long state travels through the real pages too', async () => {
    const state = '☃ & = + %20 ' + 'ß'.repeat(2000);
    const session = await signInToConsent(ctx.mock, state);
    const res = await session.post('consent', { decision: 'approve' });
    expect(new URL(res.headers.location as string).searchParams.get('state')).toBe(state);
  });

  it('the mock phone has nothing for an unknown sign-in', async () => {
    const res = await ctx.mock.app.inject({ method: 'GET', url: '/oauth/phone?request=nope' });
    expect(res.statusCode).toBe(404);
  });
});

describe('faults of the authorization step', () => {
  const long = 'S'.repeat(100);

  it('state-truncated: the redirect carries only the first 64 characters of state', async () => {
    await withMock({ faults: ['state-truncated'] }, async (mock) => {
      const approve = await consent(mock, { url: mock.url + authorizationPath(mock, { state: long }) });
      expect(new URL(approve.location!).searchParams.get('state')).toBe(long.slice(0, 64));
      const short = await consent(mock, { url: mock.url + authorizationPath(mock, { state: 'short' }) });
      expect(new URL(short.location!).searchParams.get('state')).toBe('short');
    });
  });

  it('denial-without-error: cancellation says server_error, state intact', async () => {
    await withMock({ faults: ['denial-without-error'] }, async (mock) => {
      const deny = new URL((await consent(mock, { decision: 'deny' })).location!);
      expect(deny.searchParams.get('error')).toBe('server_error');
      expect(deny.searchParams.get('state')).toBe('state-123');
      const approve = new URL((await consent(mock)).location!);
      expect(approve.searchParams.get('code')).toBeTruthy();
    });
  });

  it('denial-drops-state: cancellation has access_denied but no state; approval keeps state', async () => {
    await withMock({ faults: ['denial-drops-state'] }, async (mock) => {
      const deny = new URL((await consent(mock, { decision: 'deny' })).location!);
      expect(deny.searchParams.get('error')).toBe('access_denied');
      expect(deny.searchParams.has('state')).toBe(false);
      expect(new URL((await consent(mock)).location!).searchParams.get('state')).toBe('state-123');
    });
  });

  it('open-redirect: an unregistered redirect_uri is redirected to; unknown clients are still refused', async () => {
    await withMock({ faults: ['open-redirect'] }, async (mock) => {
      const res = await consent(mock, { url: mock.url + authorizationPath(mock, { redirect_uri: 'https://evil.example/cb' }) });
      expect(res.status).toBe(200);
      expect(res.location).toMatch(/^https:\/\/evil\.example\/cb\?code=/);
      const page = await mock.app.inject({ method: 'GET', url: authorizationPath(mock, { redirect_uri: 'https://evil.example/cb' }) });
      expect(page.statusCode).toBe(200);
      const unknown = await consent(mock, { url: mock.url + authorizationPath(mock, { client_id: 'other' }) });
      expect(unknown.status).toBe(422);
    });
  });

  it('without faults, the same requests behave', async () => {
    await withMock({}, async (mock) => {
      const res = await consent(mock, { url: mock.url + authorizationPath(mock, { redirect_uri: 'https://evil.example/cb', state: long }) });
      expect(res.status).toBe(422);
      expect(res.location).toBeNull();
      const deny = new URL((await consent(mock, { decision: 'deny', url: mock.url + authorizationPath(mock, { state: long }) })).location!);
      expect(deny.searchParams.get('error')).toBe('access_denied');
      expect(deny.searchParams.get('state')).toBe(long);
    });
  });
});
