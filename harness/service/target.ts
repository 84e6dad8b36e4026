/**
 * The target as a test worker sees it: what global setup provided under
 * inject('lockconf'), wrapped with capability lookups and a redactor that knows
 * the profile's secrets (target-view.ts). One per worker.
 */
import { inject } from 'vitest';
import type { Target } from '../contracts.js';
import { targetFromSetup } from './target-view.js';
import type {} from './provided-context.js'; // the ProvidedContext augmentation for 'lockconf'

export { targetFromSetup, testRedactor } from './target-view.js';

let cached: Target | null = null;

export function getTarget(): Target {
  if (!cached) {
    const setup = inject('lockconf');
    if (!setup) {
      throw new Error("no target: the 'lockconf' setup was not provided (run the conformance project, whose globalSetup is harness/service/global-setup.ts)");
    }
    cached = targetFromSetup(setup);
  }
  return cached;
}
