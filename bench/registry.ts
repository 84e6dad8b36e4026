/** Every benchmark, in the order a full bench runs them (the long conformance run last). */
import type { Benchmark } from './benchmark.js';
import { capture } from './benchmarks/capture.js';
import { fullRun } from './benchmarks/full-run.js';
import { mockApi } from './benchmarks/mock-api.js';
import { mockMemory } from './benchmarks/mock-memory.js';
import { mockTokens } from './benchmarks/mock-tokens.js';
import { mockWebhooks } from './benchmarks/mock-webhooks.js';
import { redact } from './benchmarks/redact.js';
import { signature } from './benchmarks/signature.js';
import { silentTarget } from './benchmarks/silent-target.js';
import { tokenPeer } from './benchmarks/token-peer.js';
import { soak } from './benchmarks/soak.js';

export const BENCHMARKS: readonly Benchmark[] = [signature, redact, tokenPeer, mockTokens, mockApi, mockWebhooks, mockMemory, capture, fullRun, silentTarget, soak];
