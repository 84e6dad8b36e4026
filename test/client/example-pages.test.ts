/**
 * Client mode with a real browser: the example application's pages variant
 * (a connect page, CSRF-protected POST forms for refresh and the webhook
 * actions) driven by Chromium as a person would, through the buttons the
 * profile names. One Chromium for the file.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_CATALOG } from '../../harness/catalog/index.js';
import { launchChromium } from '../support/chromium.js';
import { gradePages } from './support/pages-example.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium(); // installs Debian's chromium when missing, or says how
});
afterAll(async () => {
  await browser?.close();
});

describe('the example application with pages, driven by Chromium', () => {
  it('is conformant: every CLIENT- rule exercised and held, the probes all ran through its pages and forms', async () => {
    const { judgements, probes, undriven } = await gradePages({ browser });
    expect(probes).toEqual({
      tamperedState: { ran: true, codeFp: expect.any(String) },
      denial: { ran: true },
      api401: { ran: true },
      refreshRefused: { ran: true },
    });
    expect(undriven).toBeNull();
    expect(judgements.map((j) => j.id)).toEqual(CLIENT_CATALOG.map((r) => r.id));
    expect(judgements.filter((j) => j.status !== 'passed').map((j) => `${j.id}: ${j.status}: ${j.reason}`)).toEqual([]);
  });

  it('catches, each by its requirement, a client that reuses its refresh token (refreshed through the POST-only button) and one that registers webhooks under another clientID (through the CSRF-protected form)', async () => {
    const { judgements } = await gradePages({ browser, faults: ['reuses-refresh-token', 'webhook-other-client-id'] });
    expect(judgements.find((j) => j.id === 'CLIENT-REFRESH-SINGLE-USE')?.status).toBe('failed');
    expect(judgements.find((j) => j.id === 'CLIENT-WEBHOOK-CLIENT-ID')?.status).toBe('failed');
  });
});

describe('the same application with the plain HTTP driver', () => {
  it('leaves every rule it cannot drive not tested, the reason naming the browser option, and passes none', async () => {
    const { judgements, probes, undriven } = await gradePages();
    expect(undriven).toContain('--browser');
    expect(probes.tamperedState).toEqual({ ran: false, why: expect.stringContaining('--browser') });
    expect(judgements.filter((j) => j.status !== 'not-tested').map((j) => `${j.id}: ${j.status}`)).toEqual([]);
    for (const j of judgements) expect(j.reason, j.id).toContain('conformance --client --browser');
  });
});
