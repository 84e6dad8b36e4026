/**
 * The plain HTTP driver of the client probes: a browser reduced to a cookie jar
 * over undici. It follows redirects only within the app's origin and to the
 * authorization endpoint, never elsewhere. Nothing it sees goes into messages.
 */
import { request } from 'undici';
import type { ProbeTarget } from '../probe-target.js';

/** A browser session: cookies, and the last page reached. */
export class Browser {
  readonly #cookies = new Map<string, string>();
  constructor(private readonly target: ProbeTarget) {}

  /** One GET, no redirect followed. */
  async get(url: string): Promise<{ status: number; location: string | null }> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await request(url, { method: 'GET', headers: cookie ? { cookie } : {}, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(30_000) });
    await res.body.dump();
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
    const res = await request(url, { method: 'POST', headers: cookie ? { cookie } : {}, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(30_000) });
    await res.body.dump();
    return res.statusCode;
  }

  /** GET and follow redirects within the app and to the authorization endpoint; the last URL and status. */
  async browse(url: string, maxHops = 8): Promise<{ url: string; status: number; reachedAuthorization: boolean }> {
    const app = new URL(this.target.connectUrl).origin;
    const authz = `${this.target.authUrl}/authorization`;
    let current = url;
    for (let hop = 0; hop < maxHops; hop++) {
      const answer = await this.get(current);
      if (current.startsWith(authz)) return { url: current, status: answer.status, reachedAuthorization: true };
      if (answer.status < 300 || answer.status >= 400 || !answer.location) return { url: current, status: answer.status, reachedAuthorization: false };
      const next = answer.location;
      if (new URL(next).origin !== app && !next.startsWith(authz)) return { url: current, status: answer.status, reachedAuthorization: false };
      current = next;
    }
    return { url: current, status: 0, reachedAuthorization: false };
  }
}
