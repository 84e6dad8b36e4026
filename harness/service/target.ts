/**
 * The target as a test worker sees it: what global setup provided under
 * inject('lockconf'), wrapped with capability lookups and a redactor that knows
 * the profile's secrets. One per worker.
 */
import { inject } from 'vitest';
import { Redactor } from '../wire/redact.js';
import type { Capability } from '../catalog/index.js';
import type { LockconfSetup, RedactorLike, Target } from '../contracts.js';
import type {} from './provided-context.js'; // the ProvidedContext augmentation for 'lockconf'

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

/** Wrap a setup; `redactor` defaults to one seeded with the profile's secrets. */
export function targetFromSetup(setup: LockconfSetup, redactor?: RedactorLike): Target {
  const capabilities = new Set<Capability>(setup.capabilities);
  const redactorOrFresh = redactor ?? withCaptureToken(Redactor.fromProfile(setup.profile), setup);
  return {
    setup,
    profile: setup.profile,
    fixtures: setup.fixtures,
    has: (cap) => capabilities.has(cap),
    whyMissing: (cap) => (capabilities.has(cap) ? undefined : setup.missing[cap] ?? `the target does not offer ${cap}`),
    redactor: redactorOrFresh,
  };
}

/** A fresh redactor for one test: the profile's secrets and the capture server's token. */
export function testRedactor(setup: LockconfSetup): RedactorLike {
  return withCaptureToken(Redactor.fromProfile(setup.profile), setup);
}

function withCaptureToken<R extends RedactorLike>(redactor: R, setup: LockconfSetup): R {
  redactor.add(setup.capture?.token, 'capture_token');
  // Further credentials of the fixtures (GET /fixtures `clients`): their secrets too.
  for (const c of setup.fixtures?.clients ?? []) {
    redactor.add(c.clientSecret, 'client_secret');
    redactor.add(c.apiKey, 'api_key');
  }
  return redactor;
}
