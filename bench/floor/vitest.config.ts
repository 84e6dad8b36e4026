/** A bare vitest run of one trivial test (bench/benchmarks/full-run.ts): the floor issue 36's goal is stated against. */
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { root: import.meta.dirname, include: ['trivial.test.ts'], environment: 'node' } });
