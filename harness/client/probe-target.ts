/** What the client probes need to know about the application and the grading mock. */
import type { DriverTarget } from './drivers/driver.js';

export interface ProbeTarget extends DriverTarget {
  authUrl: string;
  controlUrl: string;
  controlToken: string;
  /** The fixture user who signs in. */
  userId: string;
  /** The application's address that starts authorization. */
  connectUrl: string;
  /** Optional: an address of the application that makes it refresh its token now. */
  refreshUrl?: string | null;
  /** Optional: addresses the session probe POSTs to once signed in (e.g. register, then delete a webhook). */
  actionUrls?: readonly string[];
  /** Optional: the credentials to look for in what the application sends to the browser (never reported). */
  credentials?: { clientSecret: string; apiKey: string } | null;
  /** Optional: told a line as each probe family starts and ends (the run's terminal). */
  progress?: ((line: string) => void) | null;
  /** Optional: the run's seed, from which the probes draw their values (forged states, positions): the same seed, the same probes. */
  seed?: number;
}
