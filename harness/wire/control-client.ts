/**
 * Client of the test control protocol (docs/control-protocol.md).
 * It goes through the harness's HttpClient, so control calls appear in a
 * test's exchange log, redacted like every other exchange (the control token
 * is registered with the redactor here).
 */
import type { ControlClientLike, ControlEvent, Fixtures, HttpClientLike, HttpResponse, RedactorLike } from '../contracts.js';
import { LockconfError } from '../run/errors.js';

function describeFailure(res: HttpResponse): string {
  const body = res.json as { error?: unknown; message?: unknown } | undefined;
  const code = typeof body?.error === 'string' ? body.error : null;
  const message = typeof body?.message === 'string' ? body.message : null;
  return [String(res.status), code, message].filter(Boolean).join(' ');
}

function isFixtures(value: unknown): value is Fixtures {
  const v = value as Fixtures | null;
  return (
    !!v &&
    Array.isArray(v.users) &&
    Array.isArray(v.locks) &&
    v.users.every((u) => typeof u?.userId === 'string') &&
    v.locks.every((l) => typeof l?.lockId === 'string')
  );
}

/**
 * The optional fields of GET /fixtures, kept only when well-formed: `clients` (every
 * entry with its four strings), `deliveryTimeoutMs` (a positive integer) and `resets`
 * (a count, 0 or more).
 */
function withOptionalFixtures(base: Fixtures, answer: Record<string, unknown>, redactor: RedactorLike | null): Fixtures {
  const out: Fixtures = { ...base };
  delete out.clients;
  delete out.deliveryTimeoutMs;
  const clients = answer.clients;
  const fields = ['clientId', 'clientSecret', 'apiKey', 'redirectUri'] as const;
  if (Array.isArray(clients) && clients.every((c) => c && typeof c === 'object' && fields.every((f) => typeof (c as Record<string, unknown>)[f] === 'string' && (c as Record<string, string>)[f] !== ''))) {
    out.clients = clients.map((c: Record<string, string>) => ({ clientId: c.clientId!, clientSecret: c.clientSecret!, apiKey: c.apiKey!, redirectUri: c.redirectUri! }));
    for (const c of out.clients) {
      redactor?.add(c.clientSecret, 'client_secret');
      redactor?.add(c.apiKey, 'api_key');
    }
  }
  delete out.resets;
  delete out.developmentServer;
  if (answer.developmentServer === true) out.developmentServer = true;
  const resets = answer.resets;
  if (typeof resets === 'number' && Number.isSafeInteger(resets) && resets >= 0) out.resets = resets;
  const timeout = answer.deliveryTimeoutMs;
  if (typeof timeout === 'number' && Number.isSafeInteger(timeout) && timeout > 0) out.deliveryTimeoutMs = timeout;
  return out;
}

export class ControlClient implements ControlClientLike {
  private readonly controlUrl: string;
  private readonly controlToken: string;
  private readonly http: HttpClientLike;
  private readonly redactor: RedactorLike | null;
  private readonly clientId: string | null;

  /**
   * `clientId` (for POST /client-credentials) and `redactor` default to the
   * HttpClient's profile and redactor when `http` is a harness HttpClient.
   */
  constructor(opts: { controlUrl: string; controlToken: string; http: HttpClientLike; clientId?: string; redactor?: RedactorLike }) {
    const fromHttp = opts.http as Partial<{ profile: { clientId?: string }; redactor: RedactorLike }>;
    this.controlUrl = opts.controlUrl.replace(/\/+$/, '');
    this.controlToken = opts.controlToken;
    this.http = opts.http;
    this.redactor = opts.redactor ?? fromHttp.redactor ?? null;
    this.clientId = opts.clientId ?? fromHttp.profile?.clientId ?? null;
    this.redactor?.add(opts.controlToken, 'control_token');
  }

  private async call(method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown, accept: number[] = []): Promise<HttpResponse> {
    const res = await this.http.request({
      method,
      url: this.controlUrl + path,
      headers: { 'x-control-token': this.controlToken, accept: 'application/json' },
      ...(json !== undefined ? { json } : {}),
    });
    if ((res.status < 200 || res.status > 299) && !accept.includes(res.status)) {
      const why = `control ${method} ${path} answered ${describeFailure(res)}`;
      throw new LockconfError('ERR_CONTROL', this.redactor ? this.redactor.redact(why) : why);
    }
    return res;
  }

  private number(res: HttpResponse, field: string, path: string): number {
    const value = (res.json as Record<string, unknown> | undefined)?.[field];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new LockconfError('ERR_CONTROL', `control ${path} answered without a numeric "${field}"`);
    }
    return value;
  }

  async fixtures(): Promise<Fixtures> {
    const res = await this.call('GET', '/fixtures');
    if (!isFixtures(res.json)) {
      throw new LockconfError('ERR_CONTROL', 'control GET /fixtures answered without {"users": [{userId…}], "locks": [{lockId…}]}');
    }
    return withOptionalFixtures(res.json, res.json as unknown as Record<string, unknown>, this.redactor);
  }

  async consent(
    authorizationUrl: string,
    userId: string,
    decision: 'approve' | 'deny',
  ): Promise<{ status: number; location: string | null; error?: string; redirectStatus?: number }> {
    // 422: the implementation refused the authorization request and will not redirect.
    const res = await this.call('POST', '/consent', { authorizationUrl, userId, decision }, [422]);
    const body = (res.json ?? {}) as { location?: unknown; error?: unknown; redirectStatus?: unknown };
    const location = typeof body.location === 'string' ? body.location : null;
    // redirectStatus (optional, docs/control-protocol-extensions.md): the status the browser receives, as the target reports it.
    const redirectStatus = Number.isInteger(body.redirectStatus) ? (body.redirectStatus as number) : undefined;
    return {
      status: res.status,
      location,
      ...(typeof body.error === 'string' ? { error: body.error } : {}),
      ...(redirectStatus !== undefined ? { redirectStatus } : {}),
    };
  }

  async now(): Promise<number> {
    return this.number(await this.call('GET', '/clock'), 'now', 'GET /clock');
  }

  async advanceClock(ms: number): Promise<number> {
    if (!Number.isFinite(ms) || ms < 0) throw new LockconfError('ERR_CONTROL', `advanceClock needs a number of ms ≥ 0`);
    return this.number(await this.call('POST', '/clock', { advanceMs: ms }), 'now', 'POST /clock');
  }

  async resetClock(): Promise<number> {
    return this.number(await this.call('POST', '/clock', { reset: true }), 'now', 'POST /clock');
  }

  async emit(event: ControlEvent): Promise<{ emitted: number; eventId: string | null }> {
    const res = await this.call('POST', '/events', event);
    const body = (res.json ?? {}) as { emitted?: unknown; eventId?: unknown };
    return {
      emitted: typeof body.emitted === 'number' ? body.emitted : 0,
      eventId: typeof body.eventId === 'string' ? body.eventId : null,
    };
  }

  /** 204 when revoked, 404 for an unknown token (not an error: the caller decides). */
  async revokeRefreshToken(refreshToken: string): Promise<number> {
    this.redactor?.add(refreshToken, 'refresh_token');
    const res = await this.call('POST', '/refresh-tokens/revoke', { refreshToken }, [404]);
    return res.status;
  }

  async setClientCredentials(enabled: boolean, clientId = this.clientId): Promise<void> {
    if (!clientId) throw new LockconfError('ERR_CONTROL', 'setClientCredentials needs the client_id (pass clientId to ControlClient)');
    await this.call('POST', '/client-credentials', { clientId, enabled });
  }

  async reset(): Promise<void> {
    await this.call('POST', '/reset', {});
  }

  /**
   * POST /lease (control-protocol-extensions.md): takes or renews the run lease.
   * `held` with the holder on 409; `absent` for any other refusal (404 from a target
   * without the extension, or an answer it does not understand): the extension is
   * optional, so a target that does not offer it is tested as before.
   */
  async lease(runId: string, ttlMs: number): Promise<LeaseAnswer> {
    const res = await this.http.request({
      method: 'POST',
      url: `${this.controlUrl}/lease`,
      headers: { 'x-control-token': this.controlToken, accept: 'application/json' },
      json: { runId, ttlMs },
    });
    const body = (res.json ?? {}) as { runId?: unknown; heldBy?: unknown; expiresAt?: unknown };
    const expiresAt = typeof body.expiresAt === 'string' ? body.expiresAt : null;
    if (res.status === 409) {
      const heldBy = typeof body.heldBy === 'string' ? body.heldBy.slice(0, 200) : 'another run';
      return { status: 'held', heldBy: this.redactor ? this.redactor.redact(heldBy) : heldBy, expiresAt };
    }
    if (res.status >= 200 && res.status <= 299) return { status: 'taken', expiresAt };
    return { status: 'absent' };
  }

  /** DELETE /lease/{runId}: gives the lease back; a 404 (no extension) or 409 (not ours any more) is no error. */
  async releaseLease(runId: string): Promise<void> {
    await this.call('DELETE', `/lease/${encodeURIComponent(runId)}`, undefined, [400, 404, 405, 409]);
  }
}

export type LeaseAnswer =
  | { status: 'taken'; expiresAt: string | null }
  | { status: 'held'; heldBy: string; expiresAt: string | null }
  | { status: 'absent' };
