/**
 * Fixture kinds (credential, lock, actor) of the Webhook registration, Webhook
 * delivery, Webhook signature and Event payloads requirements: see
 * fixture-kind-types.ts. Filled by the webhook side; once it holds an entry, every
 * MUST and SHOULD requirement of an area it names must have one
 * (test/harness/catalog/fixture-kinds.test.ts).
 */
import type { FixtureKindDeclarations } from './fixture-kind-types.js';

export const WEBHOOK_FIXTURE_KINDS: FixtureKindDeclarations = {};
