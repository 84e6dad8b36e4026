/**
 * The mock's developer pages in a real browser (headless Chromium): the start
 * page, the deliveries page after a few deliveries (accepted, refused, no
 * answer) and the API description. Screenshots go to reports/screenshots/ for
 * a person to look at; the test checks what a person would see first.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockEventService } from '../../mock/events/event-service.js';
import { createMock, type RunningMock } from '../../mock/server.js';
import { launchChromium } from '../support/chromium.js';
import { userTokens } from '../support/mock.js';
import { freePort } from '../support/net.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/** How much wider than the window the page is (0: nothing overflows); evaluated in the page. */
const OVERFLOW = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';
const SHOTS = resolve(import.meta.dirname, '../../reports/screenshots');

let mock: RunningMock;
let receiver: Receiver;
let browser: Browser;

async function register(url: string, user: number, lock = 0): Promise<void> {
  const { accessToken } = await userTokens(mock, user);
  const res = await mock.app.inject({
    method: 'POST',
    url: `/api/webhook/${mock.ctx.world.locks[lock]!.lockId}`,
    headers: { 'x-api-key': mock.profile.apiKey, 'x-access-token': accessToken, 'content-type': 'application/json' },
    payload: JSON.stringify({ url, method: 'POST', clientID: mock.profile.clientId, header: 'x-my-app', token: 'my-app-token', notificationTypes: ['operation'] }),
  });
  expect(res.statusCode).toBe(200);
}

beforeAll(async () => {
  mock = await createMock({ seed: 2026, deliveryTimeoutMs: 1000 });
  receiver = await startReceiver();
  receiver.answer('/busy', { status: 503 });
  await register(`${receiver.url}/hooks`, 0);
  await register(`${receiver.url}/busy`, 1);
  await register(`http://127.0.0.1:${await freePort()}/nobody-home`, 0, 1);
  await mock.ctx.events.emit({ kind: 'operation.app', lockId: mock.ctx.world.locks[1]!.lockId, value: 'unlatch', userId: mock.ctx.world.users[0]!.userId });
  const lockId = mock.ctx.world.locks[0]!.lockId;
  for (const [kind, value] of [['operation.app', 'unlock'], ['door', 'open'], ['operation.manual', 'lock']] as const) {
    await mock.ctx.events.emit({ kind, lockId, value, userId: mock.ctx.world.users[0]!.userId });
  }
  await (mock.ctx.events as LockEventService).idle();
  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await receiver?.close();
});

async function shoot(path: string, file: string, width = 1280): Promise<import('playwright-core').Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const res = await page.goto(`${mock.url}${path}`, { waitUntil: 'networkidle' });
  expect(res?.status()).toBe(200);
  await page.screenshot({ path: join(SHOTS, file), fullPage: true });
  expect(errors).toEqual([]);
  return page;
}

describe('The mock\'s pages in Chromium', () => {
  it('the start page: profile, users, locks and curl examples, nothing overflowing', async () => {
    const page = await shoot('/', 'mock-landing.png');
    await expect(page.locator('h1').textContent()).resolves.toBe('Reference mock');
    // The first users in sight, the rest folded (header rows: one per table).
    const shown = await page.locator('[data-testid="users"] tr').count();
    const folded = await page.locator('[data-testid="users-more"] tr').count();
    expect(shown - 1 + folded - 1).toBe(mock.ctx.world.users.length);
    expect(shown - 1).toBeLessThanOrEqual(5);
    await expect(page.locator('pre[data-testid="curl"]').count()).resolves.toBeGreaterThan(5);
    // The curl tour comes before the fixture lists, and the page is a few screens tall, not 15,000 px.
    const [tourTop, usersTop] = await page.evaluate<[number, number]>(
      '[document.querySelector(\'pre[data-testid="curl"]\').getBoundingClientRect().top, document.querySelector(\'[data-testid="users"]\').getBoundingClientRect().top]',
    );
    expect(tourTop).toBeLessThan(usersTop);
    expect(await page.evaluate<number>('document.documentElement.scrollHeight')).toBeLessThan(9000);
    // Identifiers stay whole: every table code is one line box.
    const wrapped = await page.evaluate<number>('[...document.querySelectorAll("td code")].filter((c) => c.getClientRects().length > 1).length');
    expect(wrapped).toBe(0);
    // Nothing wider than the window: long values wrap, code blocks scroll inside themselves.
    const overflow = await page.evaluate<number>(OVERFLOW);
    expect(overflow).toBe(0);
    await page.close();
  }, 30_000);

  it('the start page on a narrow screen does not overflow either', async () => {
    const page = await shoot('/', 'mock-landing-narrow.png', 420);
    const overflow = await page.evaluate<number>(OVERFLOW);
    expect(overflow).toBe(0);
    // Code blocks scroll inside themselves: none is wider than the page's column.
    const cut = await page.evaluate<number>('[...document.querySelectorAll("pre")].filter((p) => p.getBoundingClientRect().right > document.documentElement.clientWidth).length');
    expect(cut).toBe(0);
    await page.close();
  }, 30_000);

  it('the deliveries page: one row per attempt with its outcome', async () => {
    const page = await shoot('/deliveries', 'mock-deliveries.png');
    const rows = await page.locator('tr[data-testid="delivery"]').count();
    expect(rows).toBe(mock.ctx.deliveryLog!.records().length);
    expect(rows).toBeGreaterThanOrEqual(6);
    const text = await page.locator('table').textContent();
    expect(text).toContain('503');
    expect(text).toContain('200');
    expect(text).toMatch(/no answer\s*nothing listens at that address and port \(connection refused\)/);
    await page.close();
  }, 30_000);

  it('the API description renders its operations', async () => {
    const page = await shoot('/docs/', 'mock-docs.png');
    await page.locator('.opblock').first().waitFor({ timeout: 10_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(19);
    await page.close();
  }, 30_000);
});
