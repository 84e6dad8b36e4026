/**
 * Exploration proven like everything else: each sequence-only fault of the mock
 * (mock/faults.ts) is found by exploration as the requirement it breaks, from a fixed
 * seed (so the test replays exactly), and the plain mock and its legal variants that
 * reach the operations explored stay clean.
 */
import { describe, expect, test } from 'vitest';
import { FAULTS, type FaultName } from '../../../mock/faults.js';
import { VARIANTS } from '../../self-verification/matrix.js';
import { PROTOCOL_SEQUENCES, explore } from '../../../suites/explore/explorer.js';
import { withMockPort } from './mock-port.js';
import type { MockOptions } from '../../../mock/context.js';

/** The self-verification matrix's default seed (test/self-verification/run-matrix.ts): the exploration each fault's matrix run makes. */
const MATRIX_SEED = 20261122;
/** Each fault with a seed whose exploration reaches it within the default budget. */
const SEQUENCE_FAULTS: ReadonlyArray<[FaultName, number]> = [
  ['refresh-forgotten-after-month', MATRIX_SEED],
  ['refresh-stops-rotating', MATRIX_SEED],
  ['refresh-second-client-access-dead', MATRIX_SEED],
  ['cc-withdraw-ignored', MATRIX_SEED],
  ['refresh-second-client-locks-refused', MATRIX_SEED],
  // Webhook sequences (suites/explore/webhook-commands.ts): registrations of one slot overwritten twice, or deleted and made again,
  // or a user registration overwritten without header and token.
  ['lock-overwrite-header-stuck', MATRIX_SEED],
  ['lock-reregister-keeps-deleted-header', MATRIX_SEED],
  ['lock-overwrite-groups-stuck', MATRIX_SEED],
  ['user-bare-overwrite-keeps-header', MATRIX_SEED],
];

/** Legal variants (matrix.ts VARIANTS) and freedoms (`freedom:ID=alternative`, harness/catalog/freedoms.ts) of the areas explored. */
const LEGAL = [
  'conforming', 'two-day-access-tokens', 'extra-fields', 'jitter',
  'empty-webhook-answers', 'signature-layouts', 'signature-seconds', 'base64-signatures', 'lower-case-lock-ids',
  'freedom:WEBHOOK-ENDPOINT-ANSWERS=accepted-202', 'freedom:USER-OBJECT-FIELDS=user-id-only',
];

function optionsOf(name: string): MockOptions {
  if (name === 'conforming') return {};
  if (name.startsWith('freedom:')) return { freedoms: [name.slice('freedom:'.length)] } as MockOptions;
  return VARIANTS.find((v) => v.name === name)!.mockOptions;
}

describe('Exploration finds the sequence-only faults by their requirement', () => {
  for (const [fault, seed] of SEQUENCE_FAULTS) {
    test(`${fault} → ${FAULTS[fault].requirement}`, async () => {
      const x = await withMockPort({ faults: [fault] }, (port) => explore(port, { seed }));
      expect(x.error).toBeNull();
      expect(x.finding?.requirement).toBe(FAULTS[fault].requirement);
      // The story is numbered, and no secret of the profile reaches it.
      expect(x.finding!.story[0]).toMatch(/^1\. /);
      expect(x.finding!.story.join('\n')).not.toMatch(/client_secret=(?!‹)/);
      // A registration's token is a secret of the application too.
      expect(x.finding!.story.join('\n')).not.toMatch(/"token":"hook-/);
    }, 120_000);
  }
});

describe('Exploration stays clean on the plain mock and its legal variants', () => {
  for (const name of LEGAL) {
    test(name, async () => {
      const x = await withMockPort(optionsOf(name), (port) => explore(port, { seed: MATRIX_SEED }));
      expect(x.error).toBeNull();
      expect(x.finding).toBeNull();
      expect(x.commands).toBeGreaterThan(100);
      expect(x.hookSequences).toBe(3);
      expect(x.hookCommands).toBeGreaterThan(20);
    }, 120_000);
  }
});

/** The webhook areas' sequence-only faults, with the plain mock: what a run narrowed to webhook areas explores. */
const WEBHOOK_PHASE_CASES: ReadonlyArray<FaultName | 'conforming'> = ['lock-overwrite-header-stuck', 'lock-reregister-keeps-deleted-header', 'conforming'];

describe('A run narrowed to webhook areas leaves the protocol phase out, and its webhook phase finds the same', () => {
  for (const name of WEBHOOK_PHASE_CASES) {
    test(name, async () => {
      const options = name === 'conforming' ? {} : { faults: [name] };
      const whole = await withMockPort(options, (port) => explore(port, { seed: MATRIX_SEED }));
      const narrowed = await withMockPort(options, (port) => explore(port, { seed: MATRIX_SEED, protocolPhase: 'no test of the selection reports it' }));
      expect(narrowed.error).toBeNull();
      expect(narrowed.sequences).toBe(narrowed.hookSequences); // no protocol sequence ran
      expect(narrowed.leftOut).toContainEqual({ operation: PROTOCOL_SEQUENCES, reason: 'no test of the selection reports it' });
      expect(whole.leftOut.map((l) => l.operation)).not.toContain(PROTOCOL_SEQUENCES);
      // The webhook phase draws its own sequences (seed + 1) from a reset target: the same finding, by the same path.
      expect(narrowed.finding?.requirement).toBe(whole.finding?.requirement);
      expect(narrowed.finding?.path).toBe(whole.finding?.path);
      expect(narrowed.hookSequences).toBe(whole.hookSequences);
      if (name === 'conforming') expect(narrowed.hookCommands).toBe(whole.hookCommands);
    }, 120_000);
  }
});
