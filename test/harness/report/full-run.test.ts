/**
 * End to end: a full conformance run through the command line against the
 * reference mock writes every report file, no report file holds a secret, a
 * token or a code, and the pages render in a browser without asking any other
 * host for anything.
 *
 * The mock runs in this process behind a recording proxy, so the test knows
 * every token and code the target handed out and every webhook token the
 * harness chose, independently of the harness's own redaction.
 */
import { SIGN_IN_REQUIREMENTS } from '../../../harness/run/sign-in-switch.js';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CATALOG } from '../../../harness/catalog/index.js';
import { declaredSlices, slicedRequirements } from '../../../harness/catalog/slices/index.js';
import type { ConformanceResult } from '../../../harness/report/result-file.js';
import { createMock, type RunningMock } from '../../../mock/server.js';
import { launchChromium } from '../../support/chromium.js';
import { cli } from '../../support/cli.js';
import { EMBEDDED_CREDS, sharedRun, type SharedRun } from '../../support/shared-runs.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import { textsUnder } from '../../support/files.js';
import { codeScanner, secretScanner } from '../../support/leak-scan.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Whether this machine can listen on an address (a machine without IPv6 has no [::1]). */
function canListenOn(host: string): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(0, host, () => server.close(() => done(true)));
  });
}
const CREDENTIALS = {
  clientId: 'leaktest-client-id-5b1e',
  clientSecret: 'leaktest-client-secret-8f3a2c71d9',
  apiKey: 'leaktest-api-key-0c6d19be74a2',
  controlToken: 'leaktest-control-token-7e44a0f3c2',
};

/** The command line in a child process (test/support/cli.ts), its stdout and stderr as one text. */
async function runCli(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const r = await cli(args, extraEnv);
  return { code: r.code, out: r.stdout + r.stderr };
}

/** Every place a secret shows up in `files` (of the run directory `dir`): "file: kind". Each file is read once for every secret (test/support/leak-scan.ts). */
function findLeaks(dir: string, files: ReadonlyArray<{ file: string; text: string }>, secrets: Map<string, string>): string[] {
  const scan = secretScanner(secrets);
  return files.flatMap(({ file, text }) => scan(text).map((kind) => `${relative(dir, file)}: ${kind}`));
}

let work = '';
let mock: RunningMock;
let proxy: RecordingProxy;
let runDir = '';
let run: { code: number | null; out: string };
let result: ConformanceResult;
let embedded: Promise<SharedRun> | undefined;
const smsCodes = new Set<string>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'lockconf-full-run-'));
  mock = await createMock({ credentials: CREDENTIALS, deliveryTimeoutMs: 1000 }); // as the embedded mock: the timeout rule is exercised within a short hold
  proxy = await startRecordingProxy(mock.url);
  // Every SMS code the sign-in pages send (the sign-in suite reads them through the control extension).
  const outbox = mock.ctx.smsOutbox!;
  const record = outbox.record.bind(outbox);
  outbox.record = (email, code) => { smsCodes.add(code); record(email, code); };
  const profile = {
    ...mock.profile,
    authUrl: `${proxy.url}/oauth`,
    baseUrl: `${proxy.url}/api`,
    controlUrl: `${proxy.url}/_control`,
  };
  const target = join(work, 'target.json');
  await writeFile(target, JSON.stringify(profile), { mode: 0o600 });
  await chmod(target, 0o600);
  runDir = join(work, 'run');
  // The one full run of npm test drives the sign-in screens too (Chromium): every requirement in scope.
  run = await runCli(['conformance', '--target', target, '--out', runDir, '--seed', '20261122'], { LOCKCONF_SIGN_IN: 'on' });
  result = JSON.parse(await readFile(join(runDir, 'conformance.json'), 'utf8')) as ConformanceResult;
}, 300_000);

afterAll(async () => {
  await embedded?.catch(() => undefined); // no child run this file started outlives it
  await proxy?.close();
  await mock?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a full conformance run through the command line', () => {
  it('ends with exit 0 against the reference mock and writes every report file', () => {
    expect(run.code, run.out.slice(-3000)).toBe(0);
    expect(['conformant', 'incomplete']).toContain(result.verdict);
    // The plain mock's judgement in npm test (the kill matrix's sample leaves it here: matrix.ts planMatrix):
    // nothing failed and nothing warned (a warned SHOULD exits 0 too).
    expect(result.requirements.filter((r) => r.status === 'failed' || r.status === 'warned').map((r) => r.id)).toEqual([]);
    // The sign-in suite drove the screens (the test account and SMS codes from the control extension).
    for (const id of SIGN_IN_REQUIREMENTS) expect(result.requirements.find((r) => r.id === id)?.status, id).toBe('passed');
    for (const file of ['index.html', 'allure-report/index.html', 'junit.xml', 'conformance.json']) {
      expect(existsSync(join(runDir, file)), file).toBe(true);
    }
    expect(run.out).toContain(`report: ${join(runDir, 'index.html')}`);
    expect(run.out).toMatch(/spec area\s+passed\s+failed\s+warned\s+not tested\s+info/);
  });

  it('writes conformance.json in the shape of interfaces.md §3', () => {
    expect(result.tool).toEqual({ name: 'lockconf', version: expect.any(String) });
    expect(result.target).toMatchObject({ authUrl: `${proxy.url}/oauth`, baseUrl: `${proxy.url}/api`, mock: false });
    expect(result.seed).toBe(20261122);
    expect(Date.parse(result.finishedAt)).toBeGreaterThanOrEqual(Date.parse(result.startedAt));
    expect(Object.keys(result.counts)).toEqual(expect.arrayContaining(['passed', 'failed', 'warned', 'notTested', 'informational']));
    expect(result.requirements.map((r) => r.id)).toEqual(SERVICE_CATALOG.map((r) => r.id));
    for (const r of result.requirements) {
      expect(r).toMatchObject({ id: expect.any(String), level: expect.any(String), section: expect.any(String), status: expect.any(String), reason: expect.any(String), tests: expect.any(Array) });
    }
    expect(result.counts.passed).toBeGreaterThan(10);
  });

  it('names the suite module that declares each test, also for the modules suites/leased.test.ts runs', () => {
    const fileOf = (id: string) => result.tests.find((t) => t.requirement === id)?.file;
    expect(fileOf('DELIVERY-NO-REDIRECT')).toBe('suites/webhooks/delivery.suite.ts');
    expect(fileOf('OAUTH-STATE-ECHO')).toBe('suites/oauth/authorization-code.test.ts');
    expect(result.tests.map((t) => t.file)).not.toContain('suites/leased.test.ts');
  });

  it('exercises every declared slice of every requirement it judged (harness/catalog/slices)', async () => {
    const ipv6 = await canListenOn('::1');
    // Issue 19's traceability rule: a declared slice no test exercised with an assertion is a gap, not a pass.
    // The one slice this machine may be unable to carry out: the url at [::1], where the
    // machine has no IPv6 loopback (then it is rightly not tested; where it has one, a gap).
    const hostless = (s: { slice: string; status: string }) => s.slice === 'url-part=ipv6-literal' && s.status === 'not-tested' && !ipv6;
    const gaps = result.requirements
      .filter((r) => r.status !== 'not-tested' || r.reason !== 'no test checks this requirement')
      .flatMap((r) => (r.slices ?? [])
        .filter((s) => (s.status === 'missing' || s.status === 'not-tested') && !hostless(s))
        .map((s) => `${r.id} [${s.slice}]: ${s.status === 'missing' ? 'no test exercised it' : `not tested: ${s.reason ?? ''}`}`));
    expect(gaps).toEqual([]);
    for (const id of slicedRequirements().filter((id) => SERVICE_CATALOG.some((r) => r.id === id))) {
      expect(result.requirements.find((r) => r.id === id)?.slices?.length, `${id} lists its slices in conformance.json`).toBe(declaredSlices(id).length);
    }
  });

  // 400 KB since the exploration and the slices of issue 32 (158 tests, 340–355 KB measured; 300 KB before, with 147).
  it('keeps index.html of a passing run under 400 KB', async () => {
    const html = await readFile(join(runDir, 'index.html'), 'utf8');
    expect(Buffer.byteLength(html)).toBeLessThan(400 * 1024);
  });

  it('names tests by requirement ID in junit.xml', async () => {
    const junit = await readFile(join(runDir, 'junit.xml'), 'utf8');
    expect(junit).toContain('OAUTH-STATE-ECHO:');
    expect(junit).toMatch(/<testsuites\b/);
  });

  it('leaves no secret, token or code in any file of the run', async () => {
    const secrets = new Map<string, string>([
      [mock.ctx.world.users[0]!.password, 'the sign-in password (control GET /sign-in/account)'],
      [CREDENTIALS.clientSecret, 'client_secret'],
      [CREDENTIALS.apiKey, 'api key'],
      [CREDENTIALS.controlToken, 'control token'],
    ]);
    for (const v of proxy.values()) if (!secrets.has(v) && v !== CREDENTIALS.clientId) secrets.set(v, `token or code ${v.slice(0, 4)}…`);
    // The run must have obtained tokens, or this test would prove nothing.
    expect(proxy.values().size).toBeGreaterThan(10);
    const files = await textsUnder(runDir);
    expect(files.some(({ file }) => file.includes('allure-results'))).toBe(true);
    expect(findLeaks(runDir, files, secrets)).toEqual([]);
    for (const [value] of secrets) expect(run.out.includes(value), 'console output holds a secret').toBe(false);
    // The SMS codes (six digits: looked for where a value stands, a JSON string or a form field).
    expect(smsCodes.size, 'the sign-in suite received SMS codes').toBeGreaterThan(5);
    const holdsCode = codeScanner(smsCodes);
    expect(files.filter(({ text }) => holdsCode(text)).map(({ file }) => `${relative(runDir, file)} holds an SMS code`)).toEqual([]);
  }, 180_000); // every file of the run searched for every token the run obtained: CPU-bound, slow on a busy machine

  it('keeps the embedded-mock path clean too (credentials fixed through LOCKCONF_MOCK_OPTIONS)', async () => {
    const creds = EMBEDDED_CREDS;
    // The embedded-mock run shares nothing with this file's: a full run of the embedded mock with its credentials
    // fixed (EMBEDDED_CREDS), which other files read too (test/support/shared-runs.ts). Asked for here, after this
    // file's run, not beside it: both are CPU-bound, and the run through the proxy keeps its hook's time to itself.
    embedded = sharedRun('embedded-full');
    const r = await embedded;
    const dir = r.dir;
    const out = r.stdout + r.stderr;
    expect(r.code, out.slice(-2000)).toBe(0);
    const secrets = new Map(Object.entries(creds).map(([k, v]) => [v, k]));
    expect(findLeaks(dir, await textsUnder(dir), secrets)).toEqual([]);
    for (const v of Object.values(creds)) expect(out.includes(v)).toBe(false);
  }, 300_000);
});

describe('the reports in a browser', () => {
  let server: FastifyInstance;
  let origin = '';
  let browser: Browser;

  beforeAll(async () => {
    server = Fastify({ logger: false });
    await server.register(fastifyStatic, { root: runDir });
    origin = await server.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium(); // installs Debian's chromium when missing, or says how
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(path: string, screenshot: string) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
    const foreign: string[] = [];
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !/^(data|blob|about):/.test(url)) foreign.push(url);
    });
    await page.goto(`${origin}/${path}`, { waitUntil: 'load' });
    return { page, foreign, shoot: async () => {
      await mkdir(join(ROOT, 'reports', 'screenshots'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'reports', 'screenshots', screenshot) });
    } };
  }

  it('index.html shows the verdict, the counts and a row per requirement, and asks no other host', async () => {
    const { page, foreign, shoot } = await open('index.html', 'index.png');
    expect(await page.locator('[data-verdict]').getAttribute('data-verdict')).toBe(result.verdict);
    expect(await page.locator('[data-verdict]').isVisible()).toBe(true);
    expect(await page.locator('li[data-status="passed"] .n').textContent()).toBe(String(result.counts.passed));
    expect(await page.locator('li[data-status="not-tested"] .n').textContent()).toBe(String(result.counts.notTested));
    expect(await page.locator('article.req').count()).toBe(SERVICE_CATALOG.length);
    expect(await page.locator('#req-OAUTH-STATE-ECHO').isVisible()).toBe(true);
    await shoot();
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);

  it('the Allure report renders its results and asks no other host', async () => {
    const { page, foreign, shoot } = await open('allure-report/index.html', 'allure.png');
    await page.getByText('OAuth authorization').first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await shoot();
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);
});
