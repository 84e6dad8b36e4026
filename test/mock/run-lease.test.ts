/**
 * The mock's run lease and reset count (docs/control-protocol-extensions.md,
 * "One run per target"): POST /lease takes or renews, 409 names the holder,
 * DELETE /lease/{runId} gives it back, GET /fixtures counts POST /reset.
 */
import { describe, expect, it } from 'vitest';
import { RunCoordination } from '../../mock/control/run-lease.js';
import { useMock } from '../support/mock.js';

const ctl = useMock();
const noLease = useMock({ lease: false });

function call(which: typeof ctl, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return which.mock.app.inject({
    method,
    url: `/_control${url}`,
    headers: { 'x-control-token': which.mock.profile.controlToken!, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}

describe('POST /lease and DELETE /lease/{runId}', () => {
  it('the first run takes the lease; a second is answered 409 with the holder; the holder renews; release frees it', async () => {
    const taken = await call(ctl, 'POST', '/lease', { runId: 'run-a', ttlMs: 60_000 });
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toMatchObject({ runId: 'run-a', expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const refused = await call(ctl, 'POST', '/lease', { runId: 'run-b', ttlMs: 60_000 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'lease_held', heldBy: 'run-a', expiresAt: taken.json().expiresAt });
    expect((await call(ctl, 'POST', '/lease', { runId: 'run-a', ttlMs: 60_000 })).statusCode).toBe(200);
    expect((await call(ctl, 'DELETE', '/lease/run-b')).statusCode).toBe(409);
    expect((await call(ctl, 'DELETE', '/lease/run-a')).statusCode).toBe(204);
    expect((await call(ctl, 'POST', '/lease', { runId: 'run-b', ttlMs: 1000 })).statusCode).toBe(200);
    expect((await call(ctl, 'DELETE', '/lease/run-b')).statusCode).toBe(204);
  });

  it('a malformed body is a 400 naming the field', async () => {
    for (const body of [{ runId: '', ttlMs: 1000 }, { runId: 'a b', ttlMs: 1000 }, { runId: 'a', ttlMs: 10 }, { runId: 'a' }, { runId: 'a', ttlMs: 1000, x: 1 }]) {
      const res = await call(ctl, 'POST', '/lease', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('invalid_body');
    }
  });

  it('needs the control token like every control endpoint', async () => {
    const res = await ctl.mock.app.inject({ method: 'POST', url: '/_control/lease', headers: { 'content-type': 'application/json' }, payload: '{"runId":"x","ttlMs":1000}' });
    expect(res.statusCode).toBe(401);
  });

  it('a mock started with lease: false has no such endpoint (404), as a target without the extension', async () => {
    expect((await call(noLease, 'POST', '/lease', { runId: 'x', ttlMs: 1000 })).statusCode).toBe(404);
  });
});

describe('the lease ends on real time, unless renewed', () => {
  it('expires after its ttl, and a new run may take it', () => {
    let now = 1_000;
    const runs = new RunCoordination(() => now);
    expect(runs.take('a', 5_000)).toMatchObject({ taken: true, lease: { runId: 'a', expiresAt: 6_000 } });
    now = 5_999;
    expect(runs.take('b', 5_000)).toEqual({ taken: false, heldBy: 'a', expiresAt: 6_000 });
    now = 6_000;
    expect(runs.take('b', 5_000)).toMatchObject({ taken: true });
    expect(runs.held()?.runId).toBe('b');
  });
});

describe('GET /fixtures: resets', () => {
  it('counts every POST /reset, with or without the lease', async () => {
    for (const which of [ctl, noLease]) {
      const before = (await call(which, 'GET', '/fixtures')).json().resets as number;
      expect(Number.isInteger(before)).toBe(true);
      await call(which, 'POST', '/reset');
      await call(which, 'POST', '/reset');
      expect((await call(which, 'GET', '/fixtures')).json().resets).toBe(before + 2);
    }
  });
});
