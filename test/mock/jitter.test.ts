/**
 * The jitter variant (mock/jitter.ts): seeded delays, deliveries that fan out in the
 * order of their random waits (not of the registrations), every one still sent once,
 * none after the mock closed; and the port suites use to judge "no second attempt".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../harness/cli.js';
import { startCommandMock } from '../../harness/commands/mock.js';
import { Clock } from '../../mock/clock.js';
import type { MockContext } from '../../mock/context.js';
import { FaultSet } from '../../mock/faults.js';
import { Jitter, mulberry32 } from '../../mock/jitter.js';
import { createMock } from '../../mock/server.js';
import { WebhookDeliverer } from '../../mock/webhooks/delivery.js';
import type { Registration } from '../../mock/webhooks/registry.js';
import { unansweredPort } from '../../suites/support/unanswered-port.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

function deliverer(seed: number, maxDeliveryDelayMs?: number): WebhookDeliverer {
  const ctx = {
    options: { deliveryTimeoutMs: 2_000, signatureEncoding: 'hex' },
    clock: new Clock(),
    faults: new FaultSet(),
    credentials: { apiKey: 'k'.repeat(32), clientSecret: 's'.repeat(32) },
    jitter: new Jitter({ seed, ...(maxDeliveryDelayMs !== undefined ? { maxDeliveryDelayMs } : {}) }),
    log: () => {},
  } as unknown as MockContext;
  return new WebhookDeliverer(ctx);
}

function registration(path: string): Registration {
  return { id: path, lockId: 'AB', userId: null, clientId: 'c', url: `${receiver.url}${path}`, method: 'POST', header: 'x-app', token: 't', notificationTypes: [], createdAtMs: 0 };
}

describe('the seeded generator', () => {
  it('draws the same sequence from the same seed, another from another seed', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, mulberry32(seed));
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const x of draw(7)) expect(x >= 0 && x < 1).toBe(true);
  });

  it('keeps every delay within its bounds and refuses bounds it cannot honour', () => {
    const jitter = new Jitter({ seed: 1, maxDeliveryDelayMs: 40, maxAnswerDelayMs: 3 });
    for (let i = 0; i < 200; i++) {
      expect(jitter.deliveryDelayMs()).toBeLessThanOrEqual(40);
      expect(jitter.answerDelayMs()).toBeLessThanOrEqual(3);
    }
    expect(() => new Jitter({ seed: -1 })).toThrow(RangeError);
    expect(() => new Jitter({ seed: 1, maxDeliveryDelayMs: 60_000 })).toThrow(RangeError);
    expect(new Jitter({ seed: 9 }).describe()).toContain('seed 9');
  });
});

describe('deliveries under jitter', () => {
  it('fan out in the order of their random waits, each sent once', async () => {
    receiver.reset();
    const seed = 20261126;
    const predicted = new Jitter({ seed });
    const waits = Array.from({ length: 6 }, () => predicted.deliveryDelayMs());
    const d = deliverer(seed);
    const paths = waits.map((_, i) => `/r${i}`);
    for (const path of paths) d.deliver(registration(path), { Event: 'lock', LockID: 'AB' });
    await d.idle();
    const arrived = receiver.received.map((r) => r.path);
    expect([...arrived].sort()).toEqual(paths);
    // Every pair whose waits differ clearly arrives in the order of the waits, registration order or not.
    let overtaken = 0;
    for (let i = 0; i < waits.length; i++) {
      for (let j = 0; j < waits.length; j++) {
        if (waits[i]! + 60 >= waits[j]!) continue;
        expect(arrived.indexOf(paths[i]!), `${paths[i]} waited ${waits[i]} ms, ${paths[j]} ${waits[j]} ms`).toBeLessThan(arrived.indexOf(paths[j]!));
        if (i > j) overtaken++;
      }
    }
    expect(overtaken, `waits ${waits.join(', ')}: a later registration overtakes an earlier one`).toBeGreaterThan(0);
    await d.close();
  });

  it('sends nothing once the deliverer closed during the wait', async () => {
    receiver.reset();
    const d = deliverer(3, 20);
    d.deliver(registration('/closed'), { Event: 'lock' });
    await d.close();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(receiver.at('/closed')).toEqual([]);
  });

  it('a jittered mock still answers its API and prints its seed', async () => {
    const lines: string[] = [];
    const mock = await createMock({ jitter: { seed: 5 }, log: (line) => lines.push(line) });
    try {
      const res = await fetch(`${mock.profile.baseUrl}/users/me`, { headers: { 'x-api-key': mock.profile.apiKey } });
      expect(res.status).toBe(401);
      expect(lines.join('\n')).toContain('jitter on (seed 5)');
    } finally {
      await mock.close();
    }
  });
});

describe('lockconf mock --jitter', () => {
  it('takes the seed given, or draws one and prints it', async () => {
    for (const jitter of [42, true] as const) {
      const lines: string[] = [];
      const { mock } = await startCommandMock({ port: 0, host: '127.0.0.1', control: true, jitter }, (line) => lines.push(line));
      try {
        const seed = mock.ctx.jitter!.seed;
        if (jitter === 42) expect(seed).toBe(42);
        expect(lines.some((line) => line.includes(`jitter on (seed ${seed})`))).toBe(true);
      } finally {
        await mock.close();
      }
    }
  });

  it('refuses a seed that is not a whole number in range (exit 2)', async () => {
    expect(await main(['node', 'lockconf', 'mock', '--jitter', 'soon'])).toBe(2);
  });
});

describe('the unanswered port (DELIVERY-NO-RETRY-UNANSWERED)', () => {
  it('counts every attempt, the first included, and answers none', async () => {
    const port = await unansweredPort();
    try {
      const attempt = () => fetch(port.url, { method: 'POST', body: '{}' }).then(() => 'answered', () => 'cut');
      const first = port.firstAttempt(2_000);
      expect(await attempt()).toBe('cut');
      expect(await first).toBeTypeOf('number');
      expect(await attempt()).toBe('cut');
      expect(port.attempts()).toHaveLength(2);
    } finally {
      await port.close();
    }
  });

  it('reports no attempt when none came', async () => {
    const port = await unansweredPort();
    try {
      expect(await port.firstAttempt(20)).toBeNull();
    } finally {
      await port.close();
    }
  });
});
