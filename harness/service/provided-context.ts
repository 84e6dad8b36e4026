/**
 * What global setup hands the test workers: vitest's ProvidedContext gains
 * `lockconf` (the LockconfSetup). Global setup provides it; target.ts injects it.
 * Both import this file, so neither imports the other.
 */
import type { LockconfSetup } from '../contracts.js';
import type { SharedBrowserInfo } from '../sandbox/shared-browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    lockconf: LockconfSetup;
    /** The run's Chromium for the sign-in screens (harness/sandbox/shared-browser.ts), or null when none was started. */
    lockconfBrowser: SharedBrowserInfo | null;
  }
}

export {};
