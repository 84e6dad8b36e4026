/**
 * The plain HTTP driver of the client probes (driver.ts): a browser reduced to a
 * cookie jar over undici. It follows redirects only within the app's origin and
 * to the authorization endpoint, never elsewhere; it reads no page, so it cannot
 * go through a connect page, press a button or send a form's CSRF token (the
 * chromium driver does). Nothing it sees goes into messages.
 */
import { request } from 'undici';
import { installDispatcher } from '../../wire/dispatcher.js';
import { readBounded, type BodyStream } from '../../wire/bounded-body.js';
import { BROWSER_OPTION, DriverFailure, type Driver, type DriverFactory, type DriverTarget, type Landing } from './driver.js';

// The harness's pool: an idle connection dropped before the application or the mock closes it (wire/dispatcher.ts).
installDispatcher();

/** A browser session: cookies, and the last page reached. */
export class Browser implements Driver {
  readonly kind = 'http' as const;
  readonly #cookies = new Map<string, string>();
  /** The application's error answers to this session's actions, each naming the action. */
  readonly errorAnswers: string[] = [];
  constructor(private readonly target: DriverTarget, private readonly note: (why: string) => void = () => {}) {}

  get canRefresh(): boolean {
    return Boolean(this.target.refreshUrl);
  }

  /** The answer's body: scanned when it is the application's and the run scans (bounded), else dropped. */
  async #read(method: string, url: string, body: BodyStream & { dump(): Promise<void> }, headers: Record<string, string | string[] | undefined>): Promise<void> {
    const scan = this.target.scan;
    if (!scan || !this.#isApp(url)) return void (await body.dump());
    const read = await readBounded(body, { headers, limit: 1024 * 1024 });
    scan.see(method, url, (read.tooLarge ? read.head : read.bytes).toString('utf8'));
  }

  /** Where a request to `url` goes: the configured address, with the other name in Host, for the dialAs origin. */
  #dial(url: string, cookie: string): { to: string; headers: Record<string, string> } {
    const headers: Record<string, string> = cookie ? { cookie } : {};
    const alias = this.target.dialAs;
    const u = new URL(url);
    if (!alias || u.origin !== alias.origin) return { to: url, headers };
    return { to: `${alias.address}${u.pathname}${u.search}`, headers: { ...headers, host: u.host } };
  }

  /** The application's origins: its connect URL's, and the address it is dialled at under another name. */
  #isApp(url: string): boolean {
    const origin = new URL(url).origin;
    return origin === new URL(this.target.connectUrl).origin || origin === this.target.dialAs?.address;
  }

  /** One GET, no redirect followed. */
  async get(url: string): Promise<{ status: number; location: string | null }> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const { to, headers } = this.#dial(url, cookie);
    const res = await request(to, { method: 'GET', headers, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(30_000) });
    await this.#read('GET', url, res.body, res.headers);
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const m = /^([^=;\s]+)=([^;]*)/.exec(line);
      if (m) this.#cookies.set(m[1]!, m[2]!);
    }
    const location = res.headers.location;
    return { status: res.statusCode, location: typeof location === 'string' ? new URL(location, url).toString() : null };
  }

  /** A POST with no body (an action of the app's page), no redirect followed; the status. */
  async post(url: string): Promise<number> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const { to, headers } = this.#dial(url, cookie);
    const res = await request(to, { method: 'POST', headers, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(30_000) });
    await this.#read('POST', url, res.body, res.headers);
    return res.statusCode;
  }

  /** GET and follow redirects within the app and to the authorization endpoint; the last URL and status. */
  async browse(url: string, maxHops = 8): Promise<Landing> {
    const authz = `${this.target.authUrl}/authorization`;
    let current = url;
    for (let hop = 0; hop < maxHops; hop++) {
      const answer = await this.get(current);
      if (current.startsWith(authz)) return { url: current, status: answer.status, reachedAuthorization: true };
      if (answer.status < 300 || answer.status >= 400 || !answer.location) return { url: current, status: answer.status, reachedAuthorization: false };
      const next = answer.location;
      if (!this.#isApp(next) && !next.startsWith(authz)) return { url: current, status: answer.status, reachedAuthorization: false };
      current = next;
    }
    return { url: current, status: 0, reachedAuthorization: false };
  }

  /** The connect URL must lead to the authorization endpoint by redirects (within the app, then there): this driver reads no page. */
  async toAuthorization(): Promise<string> {
    const authz = `${this.target.authUrl}/authorization`;
    const landed = await this.browse(this.target.connectUrl); // GETs the authorization URL too: the mock records it, as from the user's browser
    if (landed.reachedAuthorization) return landed.url;
    const why = `the connect URL led to an answer ${landed.status} without a redirect to ${authz}`;
    if (landed.status >= 200 && landed.status < 300) {
      const page = `${why}: a page the HTTP driver cannot go through; ${BROWSER_OPTION}`;
      this.note(page);
      throw new DriverFailure(page);
    }
    throw new DriverFailure(why);
  }

  async refresh(): Promise<void> {
    if (!this.target.refreshUrl) throw new DriverFailure('the profile names no refreshUrl (an address of the application that makes it refresh now)');
    await this.browse(this.target.refreshUrl);
  }

  async act(): Promise<void> {
    for (const [i, action] of (this.target.actionUrls ?? []).entries()) {
      const status = await this.post(action);
      if (status >= 400) this.errorAnswers.push(`the application answered ${status} to the POST of actionUrls[${i}]`);
    }
  }
}

export { Browser as HttpDriver };

/** The HTTP drivers of a run; what they could not drive (a connect page, the profile's browser buttons) is noted once. */
export function httpDrivers(target: DriverTarget): DriverFactory {
  const notes: string[] = [];
  const note = (why: string) => {
    if (!notes.includes(why)) notes.push(why);
  };
  const b = target.browser;
  if (b && (b.connect || b.refresh || b.actions?.length)) note(`the profile's browser section is pressed by Chromium only; ${BROWSER_OPTION}`);
  return {
    kind: 'http',
    open: async (t) => new Browser(t, note),
    get undriven() {
      return notes.length ? notes.join('; ') : null;
    },
    close: async () => {},
  };
}
