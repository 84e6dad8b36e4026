/**
 * A person's sign-in through the mock's real pages, in headless Chromium:
 * e-mail and password, the SMS code read from the mock phone, consent, and the
 * redirect to the application with a code and the exact state.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.js';
import { createMock } from '../../mock/server.js';
import { launchChromium } from '../support/chromium.js';
import { authorizationUrl, tokenRequest } from '../support/mock.js';

describe('sign-in in a browser', () => {
  let browser: Browser;
  let mock: RunningMock;
  const logs: string[] = [];

  beforeAll(async () => {
    mock = await createMock({ log: (line) => logs.push(line) });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  async function signInAndConsent(state: string, button: 'Approve' | 'Cancel') {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const start = await page.goto(authorizationUrl(mock, { state }));
      expect(start?.status()).toBe(200);
      const user = mock.ctx.world.users[0]!;
      await page.fill('#email', user.email);
      await page.fill('#password', user.password);
      await Promise.all([page.waitForURL('**/oauth/sign-in'), page.click('button[type=submit]')]);

      // The SMS arrives on the mock phone (and in the mock's log).
      const phoneHref = await page.getAttribute('#mock-phone', 'href');
      const phone = await context.newPage();
      await phone.goto(new URL(phoneHref!, page.url()).toString());
      const code = (await phone.textContent('[data-testid=sms-code]'))?.trim();
      expect(code).toMatch(/^\d{6}$/);
      expect(logs.at(-1)).toContain(code);
      await phone.close();

      await page.fill('#code', code!);
      await Promise.all([page.waitForURL('**/oauth/sms'), page.click('button[type=submit]')]);
      expect(await page.textContent('h1')).toBe('Allow access?');
      await Promise.all([page.waitForURL(`${mock.profile.redirectUri}?**`), page.click(`button:has-text("${button}")`)]);
      return { url: new URL(page.url()), outcome: await page.textContent('[data-testid=outcome]') };
    } finally {
      await context.close();
    }
  }

  it('Approve lands on the redirect URI with a code and the exact state', async () => {
    const state = 'csrf: ☃ & = + %2B "quoted" <tag> ' + 'x'.repeat(300);
    const { url, outcome } = await signInAndConsent(state, 'Approve');
    expect(url.origin + url.pathname).toBe(mock.profile.redirectUri);
    expect(url.searchParams.get('state')).toBe(state);
    const code = url.searchParams.get('code');
    expect(code).toBeTruthy();
    expect(outcome).toBe('approved');
    // The code is a real one.
    const res = await tokenRequest(mock, { grant_type: 'authorization_code', code: code! });
    expect(res.status).toBe(200);
  });

  it('Cancel lands on the redirect URI with error=access_denied and the state', async () => {
    const { url, outcome } = await signInAndConsent('cancel-me', 'Cancel');
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('cancel-me');
    expect(outcome).toBe('access_denied');
  });
});
