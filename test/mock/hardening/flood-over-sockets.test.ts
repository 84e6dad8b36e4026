/**
 * A flood of authorization requests from one address, over real loopback sockets
 * (the trial's case: a sign-in started before 1,000 authorization requests from
 * another address failed with a reset connection on a loaded 2-core machine).
 * The flood comes from 127.0.0.2 (loopback: the whole of 127/8 is this machine),
 * the person signing in from 127.0.0.1 goes through sign-in, SMS and consent while
 * it lasts. Bounded: 1,000 requests, 50 connections at once, 120 s at most.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Pool, request } from 'undici';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { SIGN_IN_RATE } from '../../../mock/oauth/authorization-endpoint.js';
import { authorizationPath } from '../../support/mock.js';

const FLOOD = 1000;
const FLOOD_CONNECTIONS = 50;

let mock: RunningMock;
beforeEach(async () => {
  mock = await createMock();
});
afterEach(async () => {
  await mock.close();
});

/** A person's browser over real sockets: its own connections, cookies and the hidden form fields. */
class SocketSession {
  readonly #agent = new Agent({ connections: 2 });
  readonly #cookies = new Map<string, string>();
  requestId = '';
  csrf = '';

  async send(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<{ status: number; body: string; location: string | null }> {
    const res = await request(`${mock.url}${path}`, {
      method,
      dispatcher: this.#agent,
      headers: { cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams({ request: this.requestId, _csrf: this.csrf, ...form }).toString() : undefined,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const body = await res.body.text();
    const set = res.headers['set-cookie'];
    for (const line of [set ?? []].flat()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    this.requestId = /name="request" value="([^"]*)"/.exec(body)?.[1] ?? this.requestId;
    this.csrf = /name="_csrf" value="([^"]*)"/.exec(body)?.[1] ?? this.csrf;
    const location = res.headers.location;
    return { status: res.statusCode, body, location: typeof location === 'string' ? location : null };
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** FLOOD authorization requests from 127.0.0.2, FLOOD_CONNECTIONS at once; each answer's status (or the error's code). */
async function flood(): Promise<Map<string, number>> {
  const pool = new Pool(mock.url, { connections: FLOOD_CONNECTIONS, localAddress: '127.0.0.2' });
  const outcomes = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    while (next < FLOOD) {
      const i = next++;
      const path = authorizationPath(mock, { state: `flood-${i}` });
      const outcome = await pool.request({ method: 'GET', path, headersTimeout: 30_000, bodyTimeout: 30_000 })
        .then(async (res) => { await res.body.dump(); return String(res.statusCode); })
        .catch((err: NodeJS.ErrnoException) => err.code ?? err.name);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: FLOOD_CONNECTIONS }, worker));
  } finally {
    await pool.close();
  }
  return outcomes;
}

describe('Sign-in: a flood of authorization requests over real sockets', () => {
  it('a sign-in started before 1,000 authorization requests from another address goes through sign-in, SMS and consent while they last', async () => {
    const person = new SocketSession();
    try {
      const user = mock.ctx.world.users[0]!;
      expect((await person.send('GET', authorizationPath(mock, { state: 'person' }))).status).toBe(200);
      const flooding = flood();
      const signedIn = await person.send('POST', '/oauth/sign-in', { email: user.email, password: user.password });
      expect(signedIn.status, /<h1>(.*?)<\/h1>/s.exec(signedIn.body)?.[1]).toBe(200);
      const phone = await person.send('GET', `/oauth/phone?request=${encodeURIComponent(person.requestId)}`);
      const code = /data-testid="sms-code">(\d{6})</.exec(phone.body)?.[1] ?? '';
      expect((await person.send('POST', '/oauth/sms', { code })).status).toBe(200);
      const consent = await person.send('POST', '/oauth/consent', { decision: 'approve' });
      expect(consent.status).toBe(302);
      expect(new URL(consent.location!).searchParams.get('code')).toBeTruthy();

      const outcomes = await flooding;
      // Every flood request was answered (a page or the rate limit's 429), none reset.
      expect([...outcomes.keys()].sort()).toEqual(['200', '429']);
      expect(outcomes.get('429')).toBe(FLOOD - SIGN_IN_RATE.authorization.max);
      // And the person's address is not limited by the flood's: another sign-in starts at once.
      expect((await person.send('GET', authorizationPath(mock, { state: 'person-2' }))).status).toBe(200);
    } finally {
      await person.close();
    }
  }, 120_000);
});
