/**
 * The exchanges the mock benchmarks repeat, over real loopback sockets: an
 * authorization code through the control protocol's consent, the code and
 * refresh grants, an API call that hands back the rotated token, a webhook
 * registration, a status check. Tokens stay in memory and are never printed.
 */
import { randomBytes } from 'node:crypto';
import type { RunningMock } from '../mock/server.js';
import { header, LoopbackClient, type LoopbackResponse } from './http.js';
import { BenchError } from './safe-error.js';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export class MockFlows {
  readonly client: LoopbackClient;
  readonly #mock: RunningMock;

  constructor(mock: RunningMock, connections = 8) {
    this.#mock = mock;
    this.client = new LoopbackClient(mock.url, connections);
  }

  get userId(): string {
    const user = this.#mock.profile.fixtures?.users[0];
    if (!user) throw new BenchError('the mock has no fixture user');
    return user.userId;
  }

  get lockId(): string {
    const lock = this.#mock.profile.fixtures?.locks[0];
    if (!lock) throw new BenchError('the mock has no fixture lock');
    return lock.lockId;
  }

  #control(): Record<string, string> {
    const token = this.#mock.profile.controlToken;
    if (!token) throw new BenchError('the mock serves no control protocol');
    return { 'x-control-token': token };
  }

  /** POST /_control/consent for a fresh authorization request; the code from the Location. */
  async authorizationCode(): Promise<string> {
    const { profile } = this.#mock;
    const query = new URLSearchParams({ client_id: profile.clientId, redirect_uri: profile.redirectUri, state: randomBytes(8).toString('hex') });
    const res = await this.client.send('POST', '/_control/consent', {
      headers: this.#control(),
      json: { authorizationUrl: `${profile.authUrl}/authorization?${query}`, userId: this.userId, decision: 'approve' },
      expect: 200,
    });
    const location = (JSON.parse(res.text) as { location?: string | null }).location;
    const code = location ? new URL(location).searchParams.get('code') : null;
    if (!code) throw new BenchError('consent answered without a code');
    return code;
  }

  async exchangeCode(code: string): Promise<TokenPair> {
    return this.#grant({ grant_type: 'authorization_code', code });
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    return this.#grant({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** A fresh token pair for the first fixture user. */
  async session(): Promise<TokenPair> {
    return this.exchangeCode(await this.authorizationCode());
  }

  async #grant(fields: Record<string, string>): Promise<TokenPair> {
    const { profile } = this.#mock;
    const res = await this.client.send('POST', '/oauth/access_token', {
      form: { client_id: profile.clientId, client_secret: profile.clientSecret, ...fields },
      expect: 200,
    });
    const body = JSON.parse(res.text) as { access_token?: unknown; refresh_token?: unknown };
    if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string') {
      throw new BenchError(`${fields.grant_type} grant answered without a token pair`);
    }
    return { accessToken: body.access_token, refreshToken: body.refresh_token };
  }

  #apiHeaders(accessToken: string): Record<string, string> {
    return { 'x-api-key': this.#mock.profile.apiKey, 'x-access-token': accessToken };
  }

  /** The x-access-token a 2xx must carry (spec: Request headers for API calls). */
  #rotated(res: LoopbackResponse, what: string): string {
    const next = header(res, 'x-access-token');
    if (!next) throw new BenchError(`${what} answered ${res.status} without a rotated x-access-token`);
    return next;
  }

  /** GET /api/users/me; the rotated token. */
  async me(accessToken: string): Promise<string> {
    const res = await this.client.send('GET', '/api/users/me', { headers: this.#apiHeaders(accessToken), expect: 200 });
    return this.#rotated(res, 'GET /users/me');
  }

  /** PUT /api/remoteoperate/{lockId}/status: the status webhook goes to every listener; the rotated token. */
  async statusCheck(accessToken: string): Promise<string> {
    const res = await this.client.send('PUT', `/api/remoteoperate/${encodeURIComponent(this.lockId)}/status`, {
      headers: this.#apiHeaders(accessToken),
      expect: 200,
    });
    return this.#rotated(res, 'PUT /remoteoperate/{lockId}/status');
  }

  /** Registers url for the first lock's operation group (status checks are in it). */
  async registerLockWebhook(accessToken: string, url: string): Promise<string> {
    const res = await this.client.send('POST', `/api/webhook/${encodeURIComponent(this.lockId)}`, {
      headers: this.#apiHeaders(accessToken),
      json: {
        url,
        method: 'POST',
        clientID: this.#mock.profile.clientId,
        header: 'x-bench-hook',
        token: randomBytes(16).toString('hex'),
        notificationTypes: ['operation'],
      },
      expect: 200,
    });
    return this.#rotated(res, 'POST /webhook/{lockID}');
  }

  /** POST /_control/events: one operation.app event on the first lock. */
  async emitOperation(): Promise<number> {
    const res = await this.client.send('POST', '/_control/events', {
      headers: this.#control(),
      json: { kind: 'operation.app', lockId: this.lockId, userId: this.userId, value: 'lock' },
      expect: 200,
    });
    return (JSON.parse(res.text) as { emitted: number }).emitted;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
