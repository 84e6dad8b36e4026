/**
 * The suites whose tests each lease a fixture set (docs/architecture.md, Concurrency),
 * run as one vitest file: vitest runs one file at a time, so as separate files each
 * waited for its own longest test (a delivery test listens for retries for seconds)
 * before the next one started. As sections of one file they run side by side, up to
 * the project's maxConcurrency, and their quiet windows overlap.
 *
 * Each suite module reads like the spec section it covers; here they are only
 * imported, the longest first (the delivery tests' windows start at once, the short
 * tests fill in beside them). harness/run/selection.ts finds the tests of a suite
 * module through this file (`--only`, `--list`, docs/requirements.md).
 */
import './webhooks/delivery.suite.js';
import './webhooks/registration.suite.js';
import './webhooks/registration-domains.suite.js';
import './events/lock-events.suite.js';
import './events/user-events.suite.js';
import './webhooks/groups.suite.js';
import './webhooks/signature.suite.js';
import './events/round-trip.suite.js';
