/**
 * What the client probes drive the application with: a user's browser, reduced
 * to the steps a probe takes. Two drivers implement it:
 *   http      drivers/http.ts: a cookie jar over undici (GET the connect URL, GET refreshUrl,
 *             POST each actionUrl with no body); the default, for applications without pages
 *   chromium  drivers/chromium.ts: Debian's Chromium through playwright-core, as a person would
 *             (the app's own pages, forms and CSRF tokens, buttons named in the profile's
 *             `browser` section); `conformance --client --browser` or the profile's `driver`
 * A probe opens one driver per session (openDriver), so sessions share no cookie.
 * Nothing a driver sees (codes, state, URLs with them) goes into its messages.
 */
import type { BrowserSteps } from './browser-steps.js';
import type { ContentScan } from './content-scan.js';

export type DriverKind = 'http' | 'chromium';

/** A step the driver could not take; its message is safe to report (no code, state or secret). */
export class DriverFailure extends Error {}

/** How a report names the browser option, where the plain HTTP driver could not drive the application. */
export const BROWSER_OPTION = 'drive it with Chromium: conformance --client --browser (or the profile\'s "driver": "chromium"), with the profile\'s browser section (docs/target-profile.md)';

/** What a driver needs to know of the application (ProbeTarget extends it). */
export interface DriverTarget {
  /** The mock's OAuth base: the browser stops at {authUrl}/authorization. */
  authUrl: string;
  /** The application's address that starts authorization (with chromium: a page leading there). */
  connectUrl: string;
  /** Optional: an address of the application that makes it refresh its token now (GET). */
  refreshUrl?: string | null;
  /** Optional: addresses POSTed to once signed in (e.g. register, then delete a webhook). */
  actionUrls?: readonly string[];
  /** Optional: the profile's `browser` section (the chromium driver's clicks). */
  browser?: BrowserSteps | null;
  /** Optional: scans what the application sends to the browser for its credentials (content-scan.ts). */
  scan?: ContentScan | null;
  /**
   * Optional: the application reached under another loopback name (`origin`, e.g. http://localhost:PORT):
   * the HTTP driver sends requests to that origin to `address` (the configured one, e.g.
   * http://127.0.0.1:PORT) with the other name in the Host header, so no name is looked up.
   */
  dialAs?: { origin: string; address: string } | null;
  /** Optional: the drivers of this run (default: a plain HTTP driver per session). */
  drivers?: DriverFactory | null;
}

/** Where a browse ended: the last URL, its status, and whether it is the authorization endpoint. */
export interface Landing {
  url: string;
  status: number;
  reachedAuthorization: boolean;
}

export interface Driver {
  readonly kind: DriverKind;
  /**
   * Opens the connect URL and goes (through the application's own pages, with the
   * chromium driver) until the browser has requested {authUrl}/authorization; that URL.
   * The mock has recorded the request, as from the user's browser.
   */
  toAuthorization(): Promise<string>;
  /** Opens a URL and follows redirects (within the application and to the authorization endpoint). */
  browse(url: string): Promise<Landing>;
  /** One GET with this session's cookies, no redirect followed. */
  get(url: string): Promise<{ status: number; location: string | null }>;
  /** One POST with no body with this session's cookies, no redirect followed; the status. */
  post(url: string): Promise<number>;
  /** Whether the profile names a way to make the application refresh its token now. */
  readonly canRefresh: boolean;
  /** Makes the application refresh its token now: GET refreshUrl, or the profile's refresh button. */
  refresh(): Promise<void>;
  /** The profile's actions once signed in, in order: POST each actionUrl, or click each action button. */
  act(): Promise<void>;
  /**
   * The application's error answers (status 400 or more) to this session's steps, each naming
   * the step ("the application answered 403 to clicking "Register" (action 1)"), in order.
   */
  readonly errorAnswers: readonly string[];
}

/** Opens drivers of one kind for a run (the chromium one launches one browser, shared by its sessions). */
export interface DriverFactory {
  readonly kind: DriverKind;
  open(target: DriverTarget): Promise<Driver>;
  /** A reason the driver could not drive the application, when it met one (for the not-tested rules). */
  readonly undriven: string | null;
  close(): Promise<void>;
}

