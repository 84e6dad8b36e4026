/**
 * A loopback HTTP client for load: one undici Pool per origin, bodies read in
 * full, failures reported with method, path and status only (never the query,
 * headers or body, which carry secrets).
 */
import { Pool } from 'undici';
import { BenchError } from './safe-error.js';

export interface LoopbackResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface SendOptions {
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  body?: string | Buffer;
  /** Answer statuses accepted; anything else throws (default: any). */
  expect?: number | number[];
}

export class LoopbackClient {
  readonly #pool: Pool;

  constructor(
    readonly origin: string,
    connections = 8,
  ) {
    this.#pool = new Pool(origin, { connections, keepAliveTimeout: 10_000 });
  }

  async send(method: string, path: string, opts: SendOptions = {}): Promise<LoopbackResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Buffer | undefined = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    }
    // Named only in an error (method and path, never the query): not built per request.
    const where = () => `${method} ${path.split('?')[0]}`;
    let res;
    try {
      res = await this.#pool.request({ method: method as 'GET', path, headers, body: body ?? null, headersTimeout: 15_000, bodyTimeout: 15_000 });
    } catch (err) {
      throw new BenchError(`${where()} failed: ${(err as { code?: string }).code ?? (err as Error).message}`);
    }
    const text = await res.body.text();
    const out: LoopbackResponse = { status: res.statusCode, headers: res.headers as LoopbackResponse['headers'], text };
    if (opts.expect !== undefined) {
      const accepted = Array.isArray(opts.expect) ? opts.expect : [opts.expect];
      if (!accepted.includes(out.status)) throw new BenchError(`${where()} answered ${out.status}${errorCode(text)}`);
    }
    return out;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** The `error` field of a JSON error body, which names a reason and never carries a secret. */
function errorCode(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    return typeof body.error === 'string' ? ` (${body.error.slice(0, 60)})` : '';
  } catch {
    return '';
  }
}

export function header(res: LoopbackResponse, name: string): string | null {
  const value = res.headers[name];
  return typeof value === 'string' ? value : null;
}
