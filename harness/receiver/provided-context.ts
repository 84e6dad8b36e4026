/**
 * What the receiver run's global setup hands the test workers: vitest's
 * ProvidedContext gains `lockconfReceiver`. Global setup provides it; the
 * receiver conformance wrapper injects it. Both import this file.
 */
import type { ReceiverSettings } from './settings.js';

export interface ReceiverRunSetup {
  settings: ReceiverSettings;
  seed: number;
  runDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    lockconfReceiver: ReceiverRunSetup;
  }
}

export {};
