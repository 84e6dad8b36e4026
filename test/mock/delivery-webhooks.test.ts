/**
 * Webhook delivery over real sockets: headers, signature over the exact bytes sent,
 * no retry, no redirect, a timeout that never slows the API, and every delivery and
 * signature fault.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedMockOptions } from '../../mock/context.js';
import { registrationBody, startApiApp, type ApiApp } from '../support/api-app.js';
import { startReceiver, type Received, type Receiver } from '../support/receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

function hmac(key: string, text: string, encoding: 'hex' | 'base64' = 'hex'): string {
  return createHmac('sha256', key).update(text).digest(encoding);
}

function parseSignature(header: string | string[] | undefined): { t: string; v: string } {
  const pairs = Object.fromEntries(String(header).split(',').map((part) => part.split('=', 2) as [string, string]));
  return { t: pairs.t!, v: pairs.v! };
}

/** Starts an app, registers the owner on lock 0 at receiver path, runs fn. */
async function withRegistered<T>(
  path: string,
  setup: { faults?: string[]; options?: Partial<ResolvedMockOptions> },
  fn: (app: ApiApp, token: string) => Promise<T>,
): Promise<T> {
  const app = await startApiApp(setup);
  try {
    const token = await app.tokenFor(0);
    const res = await app.call('POST', `/webhook/${app.ctx.world.locks[0]!.lockId}`, { token, body: registrationBody(app, receiver.url + path) });
    expect(res.status).toBe(200);
    return await fn(app, token);
  } finally {
    await app.close();
  }
}

/** Emits operation.app on lock 0, waits for every delivery to finish, returns what path received. */
async function emitAndCollect(app: ApiApp, path: string): Promise<{ emitted: number; received: Received[] }> {
  const { emitted } = await app.services.events.emit({ kind: 'operation.app', lockId: app.ctx.world.locks[0]!.lockId, value: 'unlock' });
  await app.services.events.idle();
  return { emitted, received: receiver.at(path) };
}

describe('delivery', () => {
  it('one POST with content-type, custom header and a signature over the exact bytes, keyed with the API key', () =>
    withRegistered('/ok', {}, async (app) => {
      app.ctx.clock.advance(123_456);
      const { emitted, received } = await emitAndCollect(app, '/ok');
      expect(emitted).toBe(1);
      expect(received).toHaveLength(1);
      const d = received[0]!;
      expect(d.method).toBe('POST');
      expect(d.headers['content-type']).toBe('application/json');
      expect(d.headers['x-hook-token']).toBe('hook-secret-1');
      const { t, v } = parseSignature(d.headers['x-signature']);
      expect(Number(t)).toBeGreaterThanOrEqual(app.ctx.clock.now() - 5_000);
      expect(Number(t)).toBeLessThanOrEqual(app.ctx.clock.now());
      expect(Number(t)).toBeGreaterThan(Date.now() + 100_000); // the mock's clock, not the wall clock
      expect(v).toBe(hmac(app.ctx.credentials.apiKey, `${t}.${d.raw.toString('utf8')}`));
      expect(d.json.EventType).toBe('operation');
    }));

  it('signatureEncoding base64 variant', () =>
    withRegistered('/b64', { options: { signatureEncoding: 'base64' } }, async (app) => {
      const { received } = await emitAndCollect(app, '/b64');
      const { t } = parseSignature(received[0]!.headers['x-signature']);
      const header = String(received[0]!.headers['x-signature']);
      expect(header.slice(header.indexOf(',v=') + 3)).toBe(hmac(app.ctx.credentials.apiKey, `${t}.${received[0]!.text}`, 'base64'));
    }));

  it('does not retry a non-2xx answer', () =>
    withRegistered('/fail', {}, async (app) => {
      receiver.answer('/fail', { status: 500 });
      const { received } = await emitAndCollect(app, '/fail');
      expect(received).toHaveLength(1);
    }));

  it('does not follow a 302', () =>
    withRegistered('/moved', {}, async (app) => {
      receiver.answer('/moved', { status: 302, location: `${receiver.url}/elsewhere` });
      const { received } = await emitAndCollect(app, '/moved');
      expect(received).toHaveLength(1);
      expect(receiver.at('/elsewhere')).toHaveLength(0);
    }));

  it('a slow receiver never slows the API; the delivery gives up after deliveryTimeoutMs', () =>
    withRegistered('/slow', { options: { deliveryTimeoutMs: 300 } }, async (app, token) => {
      receiver.answer('/slow', { delayMs: 5_000 });
      const started = performance.now();
      const res = await app.call('PUT', `/remoteoperate/${app.ctx.world.locks[0]!.lockId}/status`, { token });
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(250);
      await app.services.events.idle();
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(receiver.at('/slow')).toHaveLength(1);
      expect(app.services.deliverer.attempts().at(-1)!.status).toBeNull();
    }));

  it('an unreachable receiver is logged without secrets and does not break the next event', async () => {
    const lines: string[] = [];
    const app = await startApiApp({ log: (line) => lines.push(line) });
    try {
      const token = await app.tokenFor(0);
      await app.call('POST', `/webhook/${app.ctx.world.locks[0]!.lockId}`, { token, body: registrationBody(app, 'http://127.0.0.1:1/hook?secret=abc') });
      await app.services.events.emit({ kind: 'operation.app', lockId: app.ctx.world.locks[0]!.lockId, value: 'lock' });
      await app.services.events.idle();
      expect(lines.some((l) => l.includes('http://127.0.0.1:1'))).toBe(true);
      expect(lines.join('\n')).not.toMatch(/secret=abc|hook-secret-1/);
      expect((await app.call('GET', '/users/me', { token })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('delivery faults', () => {
  it('duplicate-delivery: two POSTs, one counted', () =>
    withRegistered('/dup', { faults: ['duplicate-delivery'] }, async (app) => {
      const { emitted, received } = await emitAndCollect(app, '/dup');
      expect(emitted).toBe(1);
      expect(received).toHaveLength(2);
    }));

  it('wrong-content-type', () =>
    withRegistered('/ct', { faults: ['wrong-content-type'] }, async (app) => {
      expect((await emitAndCollect(app, '/ct')).received[0]!.headers['content-type']).toBe('text/plain');
    }));

  it('no-custom-header', () =>
    withRegistered('/nh', { faults: ['no-custom-header'] }, async (app) => {
      expect((await emitAndCollect(app, '/nh')).received[0]!.headers['x-hook-token']).toBeUndefined();
    }));

  it('signature-missing', () =>
    withRegistered('/ns', { faults: ['signature-missing'] }, async (app) => {
      expect((await emitAndCollect(app, '/ns')).received[0]!.headers['x-signature']).toBeUndefined();
    }));

  it('retry-on-error: a 500 is retried twice', () =>
    withRegistered('/retry', { faults: ['retry-on-error'] }, async (app) => {
      receiver.answer('/retry', { status: 500 });
      expect((await emitAndCollect(app, '/retry')).received).toHaveLength(3);
    }));

  it('retry-after-timeout: a delivery that timed out is sent once more (and only that fault resends it)', async () => {
    await withRegistered('/timeout-retry', { faults: ['retry-after-timeout'], options: { deliveryTimeoutMs: 200 } }, async (app) => {
      receiver.answer('/timeout-retry', { delayMs: 1_000 });
      expect((await emitAndCollect(app, '/timeout-retry')).received).toHaveLength(2);
      expect(app.services.deliverer.attempts().map((a) => a.error)).toEqual(['timeout', 'timeout']);
    });
    await withRegistered('/timeout-once', { faults: ['retry-unanswered', 'retry-on-error'], options: { deliveryTimeoutMs: 200 } }, async (app) => {
      receiver.answer('/timeout-once', { delayMs: 1_000 });
      expect((await emitAndCollect(app, '/timeout-once')).received).toHaveLength(1);
    });
  });

  it('follow-redirects: a 302 is followed once', () =>
    withRegistered('/redir', { faults: ['follow-redirects'] }, async (app) => {
      receiver.answer('/redir', { status: 302, location: '/redir-target' });
      await emitAndCollect(app, '/redir');
      expect(receiver.at('/redir-target')).toHaveLength(1);
    }));

  it('DELIVERY-NO-RETRY@receiver-answer=503: a 503 is sent once more, a 500 is not', async () => {
    await withRegistered('/slice-503', { faults: ['DELIVERY-NO-RETRY@receiver-answer=503'] }, async (app) => {
      receiver.answer('/slice-503', { status: 503 });
      expect((await emitAndCollect(app, '/slice-503')).received).toHaveLength(2);
    });
    await withRegistered('/slice-500', { faults: ['DELIVERY-NO-RETRY@receiver-answer=503'] }, async (app) => {
      receiver.answer('/slice-500', { status: 500 });
      expect((await emitAndCollect(app, '/slice-500')).received).toHaveLength(1);
    });
  });

  it('DELIVERY-NO-REDIRECT@receiver-answer=302: a 302 is followed, a 307 is not', async () => {
    await withRegistered('/slice-302', { faults: ['DELIVERY-NO-REDIRECT@receiver-answer=302'] }, async (app) => {
      receiver.answer('/slice-302', { status: 302, location: '/slice-302-target' });
      await emitAndCollect(app, '/slice-302');
      expect(receiver.at('/slice-302-target')).toHaveLength(1);
    });
    await withRegistered('/slice-307', { faults: ['DELIVERY-NO-REDIRECT@receiver-answer=302'] }, async (app) => {
      receiver.answer('/slice-307', { status: 307, location: '/slice-307-target' });
      await emitAndCollect(app, '/slice-307');
      expect(receiver.at('/slice-307-target')).toHaveLength(0);
    });
  });

  const signatureFaults: Array<[string, (app: ApiApp, d: Received, t: string, v: string) => void]> = [
    ['signature-wrong-key', (app, d, t, v) => expect(v).toBe(hmac(app.ctx.credentials.clientSecret, `${t}.${d.text}`))],
    ['signature-body-only', (app, d, _t, v) => expect(v).toBe(hmac(app.ctx.credentials.apiKey, d.text))],
    ['signature-other-bytes', (app, d, t, v) => expect(v).toBe(hmac(app.ctx.credentials.apiKey, `${t}.${JSON.stringify(d.json, null, 2)}`))],
    ['signature-stale-timestamp', (app, d, t, v) => {
      expect(app.ctx.clock.now() - Number(t)).toBeGreaterThanOrEqual(600_000);
      expect(v).toBe(hmac(app.ctx.credentials.apiKey, `${t}.${d.text}`));
    }],
  ];
  for (const [fault, check] of signatureFaults) {
    it(fault, () =>
      withRegistered(`/${fault}`, { faults: [fault] }, async (app) => {
        const d = (await emitAndCollect(app, `/${fault}`)).received[0]!;
        const { t, v } = parseSignature(d.headers['x-signature']);
        // Each fault but the stale timestamp makes the correct HMAC differ from the one sent.
        if (fault !== 'signature-stale-timestamp') expect(v).not.toBe(hmac(app.ctx.credentials.apiKey, `${t}.${d.text}`));
        check(app, d, t, v);
      }));
  }

  it('signature-semicolons', () =>
    withRegistered('/semi', { faults: ['signature-semicolons'] }, async (app) => {
      const d = (await emitAndCollect(app, '/semi')).received[0]!;
      expect(String(d.headers['x-signature'])).toMatch(/^t=\d+;v=[0-9a-f]{64}$/);
    }));

  it('status-check-caller-only: the status event reaches only the caller\'s registration', async () => {
    for (const faults of [[], ['status-check-caller-only']]) {
      const app = await startApiApp({ faults });
      try {
        receiver.reset();
        const lockId = app.ctx.world.locks[0]!.lockId;
        const owner = await app.tokenFor(0);
        const guest = await app.tokenFor(1);
        await app.call('POST', `/webhook/${lockId}`, { token: owner, body: registrationBody(app, `${receiver.url}/owner`) });
        await app.call('POST', `/webhook/${lockId}`, { token: guest, body: registrationBody(app, `${receiver.url}/guest`) });
        await app.call('PUT', `/remoteoperate/${lockId}/status`, { token: guest });
        await app.services.events.idle();
        expect(receiver.at('/guest')).toHaveLength(1);
        expect(receiver.at('/owner')).toHaveLength(faults.length === 0 ? 1 : 0);
      } finally {
        await app.close();
      }
    }
  });
});
