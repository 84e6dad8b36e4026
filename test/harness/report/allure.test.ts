import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../../harness/catalog/index.js';
import { enrichResults, stripExternalRequests, writeNotTestedResults } from '../../../harness/report/allure.js';
import { computeVerdict } from '../../../harness/run/verdict.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('Allure results and report', () => {
  it('strips scripts and links that load from another host, keeps local ones', () => {
    const html = `<head><link rel="icon" href="data:image/svg+xml,x"><link rel="stylesheet" href="https://fonts.example/x.css"></head>
<script src="app-1.js"></script>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('config', 'G-1');
</script>
<script>window.allure = window.allure || {};</script>`;
    const out = stripExternalRequests(html);
    expect(out).toContain('<script src="app-1.js"></script>');
    expect(out).toContain('window.allure = window.allure');
    expect(out).toContain('href="data:image/svg+xml,x"');
    expect(out).not.toMatch(/googletagmanager|gtag|fonts\.example/);
  });

  it('writes a skipped result for each not-tested requirement without one, and labels existing results', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockconf-allure-test-'));
    dirs.push(dir);
    await writeFile(join(dir, 'a-result.json'), JSON.stringify({ uuid: 'a', name: 'OAUTH-STATE-ECHO: state comes back', status: 'broken', labels: [] }));
    const tests = [{ anchor: 'test-1', name: 'OAUTH-STATE-ECHO: state comes back', file: null, state: 'failed' as const, durationMs: 1, requirement: 'OAUTH-STATE-ECHO', outcomes: [],
      exchanges: [{ request: { method: 'GET', url: 'http://x/a', headers: {}, body: '' }, response: { status: 302, headers: {}, body: '' }, durationMs: 1, startedAt: '' }], deliveries: [] }];
    await enrichResults(dir, CATALOG, tests);
    const enriched = JSON.parse(await readFile(join(dir, 'a-result.json'), 'utf8'));
    expect(enriched.status).toBe('failed');
    expect(enriched.labels).toEqual(expect.arrayContaining([
      { name: 'epic', value: 'OAuth authorization' }, { name: 'story', value: 'OAUTH-STATE-ECHO' }, { name: 'severity', value: 'critical' },
    ]));
    expect(enriched.steps[0].name).toBe('GET http://x/a → 302');

    const verdict = computeVerdict({ catalog: CATALOG, tests: [] });
    const written = await writeNotTestedResults(dir, verdict.requirements, 1);
    expect(written).toBe(CATALOG.length - 1); // OAUTH-STATE-ECHO already has a result
    const results = (await readdir(dir)).filter((f) => f.endsWith('-result.json'));
    expect(results).toHaveLength(CATALOG.length);
    const one = JSON.parse(await readFile(join(dir, results.find((f) => f !== 'a-result.json')!), 'utf8'));
    expect(one.status).toBe('skipped');
    expect(one.statusDetails.message).toBeTruthy();
    expect(one.labels.map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining(['epic', 'feature', 'story', 'severity']));
  });
});
