/**
 * The receiver suites judged on the example receiver: conformant as it is, without
 * a custom header, and in its sampled legal variants (hex-only and milliseconds-only:
 * warned on RECEIVER-SIGNATURE-ENCODINGS only; every variant with =all); each named fault whose requirement no generated
 * fault judges (every one with =all) caught by the requirement it breaks
 * (test/receiver/receiver-matrix.ts); each generated fault (receiver-slice-faults.ts:
 * one per requirement with slices by default, in packs; every one alone with LOCKCONF_RECEIVER_MATRIX_SLICES=all,
 * none with =none) caught by its requirement on its own slice. Two child processes run the
 * entries, each its share one after the other (a few seconds a run).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirement } from '../../harness/catalog/index.js';
import { RECEIVER_FAULTS } from '../../examples/app/receiver-faults.js';
import { makeTmpDir, removeTmpDir } from '../support/tmp.js';
import { SECRETS, planReceiverMatrix, receiverVariantRuns, runReceiverMatrix, type ReceiverOutcome } from './receiver-matrix.js';
import { filesUnder } from '../support/files.js';

const entries = planReceiverMatrix();
let work: string | undefined;
let outcomes: ReceiverOutcome[] = [];

beforeAll(async () => {
  work = await makeTmpDir('receiver-matrix');
  outcomes = await runReceiverMatrix(entries, work);
}, process.env.LOCKCONF_RECEIVER_MATRIX_SLICES === 'all' ? 1_800_000 : 600_000);

afterAll(async () => {
  await removeTmpDir(work);
});

function outcome(name: string): ReceiverOutcome {
  const found = outcomes.find((o) => o.entry.name === name);
  if (!found) throw new Error(`no outcome for ${name}`);
  return found;
}

describe('the example receiver, judged by the receiver suites', () => {
  it('is conformant with nothing failed or warned, every requirement tested (exit 0)', () => {
    const o = outcome('conforming');
    expect(o.why).toBe('conformant, nothing failed or warned');
    expect(o.notTested).toEqual([]);
    expect(o.exitCode).toBe(0);
  });

  it('is conformant without a custom header, answering 200 with a body and refusing with 403; only the custom-header requirement is not tested', () => {
    const o = outcome('no-custom-header');
    expect(o.why).toBe('conformant, nothing failed or warned');
    expect(o.notTested).toEqual(['RECEIVER-CUSTOM-HEADER']);
  });

  // Each legal variant (one per freedom the spec leaves a receiver): conformant, warned only where it legally lacks robustness.
  for (const variant of receiverVariantRuns().filter((v) => v.name !== 'no-custom-header')) {
    it(`is conformant as the legal variant ${variant.name}${variant.warns ? `, warned on ${variant.warns.join(', ')} only` : ', nothing failed or warned'}`, () => {
      const o = outcome(variant.name);
      expect(o.ok, o.why).toBe(true);
      expect(o.warned).toEqual(variant.warns ?? []);
      expect(o.exitCode).toBe(0);
    });
  }

  for (const entry of entries.filter((e) => e.catches)) {
    for (const c of entry.catches!) {
      it(`with the generated fault ${c.requirement}@${c.slice}${entry.catches!.length > 1 ? ` (in ${entry.name})` : ''}, is caught by ${c.requirement} on that slice`, () => {
        const o = outcome(entry.name);
        expect(o.slicesCaught ?? [], o.why).toContain(`${c.requirement} [${c.slice}]`);
        expect(o.ok, o.why).toBe(true);
        expect(o.exitCode).toBe(entry.catches!.some((x) => requirement(x.requirement).level === 'MUST') ? 1 : 0);
      });
    }
  }

  it('judges every requirement a named fault breaks, by that fault or by a generated one', () => {
    const judged = new Set(entries.flatMap((e) => [...(e.requirement ? [e.requirement] : []), ...(e.catches ?? []).map((c) => c.requirement)]));
    for (const def of Object.values(RECEIVER_FAULTS)) expect(judged.has(def.requirement), def.requirement).toBe(true);
  });

  for (const [name, def] of Object.entries(RECEIVER_FAULTS).filter(([n]) => entries.some((e) => e.name === n))) {
    it(`with the fault ${name}, is caught by ${[def.requirement, ...def.also].join(', ')}`, () => {
      const o = outcome(name);
      expect(o.why).toBe(`caught: ${[def.requirement, ...def.also].join(', ')}`);
      // A failed MUST makes the run not conformant (exit 1); a warned SHOULD does not (exit 0).
      expect(o.exitCode).toBe(requirement(def.requirement).level === 'MUST' ? 1 : 0);
    });
  }

  it('leaves no key, token or secret in any file of any run', async () => {
    const files = await filesUnder(work!);
    expect(files.length).toBeGreaterThan(entries.length);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const [what, value] of Object.entries(SECRETS)) {
        if (what !== 'header') expect(text.includes(value), `${what} in ${file}`).toBe(false);
      }
    }
  });
});
