/**
 * A target view from what global setup provides: the setup wrapped with capability
 * lookups and a redactor that knows the profile's secrets. Pure: no vitest here, so
 * global setup (in the main process) builds one without loading vitest's test API.
 */
import { Redactor } from '../wire/redact.js';
import type { Capability } from '../catalog/index.js';
import type { LockconfSetup, RedactorLike, Target } from '../contracts.js';

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
