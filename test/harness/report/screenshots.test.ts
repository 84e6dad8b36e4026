/**
 * Screenshots of index.html in Chromium, for a person to look at: a passing
 * run, a failing run (a mock fault) and a run that could not be carried out.
 * Written to reports/screenshots/; the test checks that the page renders its
 * verdict and that nothing overflows the page sideways. The three runs are
 * runs other files read too (test/support/shared-runs.ts).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../support/chromium.js';
import { ROOT } from '../../support/cli.js';
import { sharedRun, type SharedRun } from '../../support/shared-runs.js';

const SHOTS = join(ROOT, 'reports', 'screenshots');
let browser: Browser;

/** The three runs, asked for together in beforeAll (each started unless another file has): most of a run is waiting, so their waits overlap. */
let runs: { passing: Promise<SharedRun>; failing: Promise<SharedRun>; error: Promise<SharedRun> };

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  runs = {
    passing: sharedRun('embedded-full'), // every requirement; passing
    failing: sharedRun('refresh-fault'), // REFRESH-* with the mock fault refresh-error-not-oauth
    error: sharedRun('unreachable'), // every address of its --target at 127.0.0.1:9
  };
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (runs) await Promise.allSettled(Object.values(runs)); // no child run outlives the file
  await browser?.close();
});

/**
 * The top of the page as a reader first sees it, and for a failing run the first failing
 * requirement with its evidence open. No full-page shot: the pages are 25 000 to 33 000
 * pixels tall, and Chromium spent about 6 s of CPU on each; the overflow is measured
 * over the whole page all the same.
 */
async function shoot(runDir: string, name: string): Promise<{ verdict: string | null; overflow: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(pathToFileURL(join(runDir, 'index.html')).href);
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    // Open the evidence of the first failing requirement, as a reader would.
    const failed = page.locator('.req.st-failed').first();
    if (await failed.count() > 0) {
      await failed.locator('details.evidence > summary').first().click({ timeout: 1000 }).catch(() => {});
      await failed.locator('details.exchange > summary').first().click({ timeout: 1000 }).catch(() => {});
      // The open card is taller than the window: Chromium then captures beyond the viewport of a
      // 30 000-pixel page, which stalled past the timeout here. A window as tall as the card takes it in one frame.
      const box = await failed.boundingBox();
      await page.setViewportSize({ width: 1280, height: Math.min(8_000, Math.max(900, Math.ceil((box?.height ?? 0) + 40))) });
      await failed.screenshot({ path: join(SHOTS, `${name}-first-failed.png`) });
    }
    return {
      verdict: await page.locator('.verdict').getAttribute('data-verdict'),
      overflow: await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as number,
    };
  } finally {
    await page.close();
  }
}

describe('the HTML report in Chromium', () => {
  it('a passing run', async () => {
    const r = await runs.passing;
    expect(r.code, r.stdout.slice(-1500)).toBe(0);
    const shot = await shoot(r.dir, 'report-passing');
    expect(shot.verdict).toBe('partial'); // weakened by a shorter delivery wait: everything it judged passed
    expect(shot.overflow).toBeLessThanOrEqual(0);
  }, 300_000); // a full run, perhaps still being made by another file

  it('a failing run', async () => {
    const r = await runs.failing;
    expect(r.code).toBe(1);
    const shot = await shoot(r.dir, 'report-failing');
    expect(shot.verdict).toBe('not-conformant');
    expect(shot.overflow).toBeLessThanOrEqual(0);
  }, 180_000);

  it('a run that could not be carried out', async () => {
    const r = await runs.error;
    expect(r.code).toBe(2);
    const shot = await shoot(r.dir, 'report-error');
    expect(shot.verdict).toBe('error');
    expect(shot.overflow).toBeLessThanOrEqual(0);
  }, 120_000);
});
