/**
 * Client mode with a real browser: the example application's pages variant
 * (a connect page, CSRF-protected POST forms for refresh and the webhook
 * actions) driven by Chromium as a person would, through the buttons the
 * profile names. One Chromium for the file. That the correct application is
 * graded conformant through Chromium is shown end to end, by the command line, in
 * client-browser-run.test.ts (one Chromium grading fewer here).
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../support/chromium.js';
import Fastify from 'fastify';
import { chromiumDrivers, launchOptions } from '../../harness/client/drivers/chromium.js';
import { gradePages, startPagesExample } from './support/pages-example.js';
import { NO_PROBES } from '../../harness/client/probe-selection.js';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch(launchOptions(ensureChromium())); // as the driver launches it; installs Debian's chromium when missing, or says how
});
afterAll(async () => {
  await browser?.close();
});

describe('the example application with pages, driven by Chromium', () => {
  it('catches, each by its requirement, a client that reuses its refresh token (refreshed through the POST-only button) and one that registers webhooks under another clientID (through the CSRF-protected form)', async () => {
    // The session (its actions and refresh chain) is what these rules are judged on: the other probe families stay out.
    const select = { ...NO_PROBES, session: true };
    const { judgements, probes } = await gradePages({ browser, faults: ['reuses-refresh-token', 'webhook-other-client-id'], select });
    expect(probes.session?.ran).toBe(true); // its error answers (the faulty app's 502s) said in its report, the session went on
    expect(judgements.find((j) => j.id === 'CLIENT-REFRESH-SINGLE-USE')?.status).toBe('failed');
    expect(judgements.find((j) => j.id === 'CLIENT-WEBHOOK-CLIENT-ID')?.status).toBe('failed');
  }, 120_000);
});

describe('the same application with the plain HTTP driver', () => {
  it('leaves every rule it cannot drive not tested, the reason naming the browser option, and passes none', async () => {
    const lines: string[] = [];
    const { judgements, probes, undriven } = await gradePages({ progress: (line) => lines.push(line) });
    // One line as each probe family starts and one as it ends, in order (a browser grading takes minutes).
    const families = ['session', 'state', 'cancellation', 'denial', 'api-401 (the page)', 'api-401 (each call)', 'api-401 (points of a flow)', 'failed-check (the call after a refresh refused)', 'token-errors (the token endpoint failing)', 'refresh-in-flight', 'reload', 'reached-as (another name for the application)', 'answers'];
    expect(lines.map((l) => l.replace(/ ended, .*$/, ' ended'))).toEqual(families.flatMap((f) => [`probes: ${f} started`, `probes: ${f} ended`]));
    expect(lines[1]).toMatch(/^probes: session ended, did not run \(\d+\.\d s\)$/);
    expect(undriven).toContain('--browser');
    expect(probes.denial).toEqual({ ran: false, why: expect.stringContaining('--browser') });
    expect(judgements.filter((j) => j.status !== 'not-tested').map((j) => `${j.id}: ${j.status}`)).toEqual([]);
    for (const j of judgements) expect(j.reason, j.id).toContain('conformance --client --browser');
  });
});

describe('the Chromium driver', () => {
  it('names the profile\'s button it cannot find on the connect page, and nothing the page holds', async () => {
    const { mock, app, close } = await startPagesExample();
    try {
      const target = { authUrl: mock.profile.authUrl, connectUrl: `${app.url}/`, browser: { connect: { click: 'Connect my locks' }, stepTimeoutMs: 10_000 } };
      const drivers = await chromiumDrivers(target, { browser });
      try {
        const driver = await drivers.open(target);
        await expect(driver.toAuthorization()).rejects.toThrow('no button or link "Connect my locks" on the application\'s page on the way to authorization');
        expect(drivers.undriven).toContain('"Connect my locks"'); // said beside each rule left untested
      } finally {
        await drivers.close();
      }
    } finally {
      await close();
    }
  }, 60_000);


  it('names the button whose form POST the application answered 403 (not the next button as missing), and goes back to the application\'s page for the next', async () => {
    // The form posts to the page it is on, and the 403 page has no buttons: the next action would not find its own there.
    const app = Fastify();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) => done(null, body));
    const page = '<form method="post" action="/home"><button>First</button></form><form method="post" action="/home"><button>Second</button></form>';
    app.get('/home', async (_r, reply) => reply.type('text/html').send(page));
    app.post('/home', async (_r, reply) => reply.code(403).type('text/html').send('<p>forbidden</p>'));
    const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace('[::1]', '127.0.0.1');
    const target = { authUrl: `${url}/oauth`, connectUrl: `${url}/home`, browser: { actions: [{ click: 'First' }, { click: 'Second' }], stepTimeoutMs: 10_000 } };
    const drivers = await chromiumDrivers(target, { browser });
    try {
      const driver = await drivers.open(target);
      expect((await driver.browse(`${url}/home`)).status).toBe(200);
      await driver.act();
      expect(driver.errorAnswers).toEqual([
        'the application answered 403 to clicking "First" (action 1)',
        'the application answered 403 to clicking "Second" (action 2)',
      ]);
      expect(drivers.undriven).toBeNull(); // not said beside the rules of the other families
    } finally {
      await drivers.close();
      await app.close();
    }
  }, 60_000);

  it('aborts every request to another host (a page\'s resources, a redirect to a host name, an address given to it)', async () => {
    const app = Fastify();
    app.get('/page', async (_r, reply) => reply.type('text/html').send('<img src="http://lockconf-test.invalid/a.png"><img src="http://192.0.2.1/b.png"><p>page</p>'));
    app.get('/away', async (_r, reply) => reply.redirect('http://lockconf-away.invalid/', 302));
    const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace('[::1]', '127.0.0.1');
    const target = { authUrl: `${url}/oauth`, connectUrl: `${url}/page` };
    const drivers = await chromiumDrivers(target, { browser });
    try {
      const driver = await drivers.open(target);
      expect((await driver.browse(`${url}/page`)).status).toBe(200);
      expect(drivers.undriven).toContain('lockconf-test.invalid');
      expect(drivers.undriven).toContain('192.0.2.1');
      const away = await driver.browse(`${url}/away`).catch((err: Error) => err);
      if (!(away instanceof Error)) expect(away.url).not.toContain('invalid'); // the redirect went nowhere
      await expect(driver.browse('http://lockconf-elsewhere.invalid/')).rejects.toThrow('loopback addresses only');
    } finally {
      await drivers.close();
      await app.close();
    }
  }, 60_000);
});
