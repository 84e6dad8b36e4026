/**
 * What global setup hands the test workers: vitest's ProvidedContext gains
 * `lockconf` (the LockconfSetup). Global setup provides it; target.ts injects it.
 * Both import this file, so neither imports the other.
 */
import type { LockconfSetup } from '../contracts.js';

declare module 'vitest' {
  export interface ProvidedContext {
    lockconf: LockconfSetup;
  }
}

export {};
