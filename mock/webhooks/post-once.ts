/**
 * One webhook POST, and what became of it: the status, how long it took, and
 * when it failed, the kind of failure. The timeout is a chain of plain timers that
 * aborts the request (a timer is held by the event loop, so a garbage collection
 * cannot drop it the way it can drop an AbortSignal.timeout held only by
 * AbortSignal.any), counting only the time the process was free to hear the answer
 * (responsiveTimeout). Never follows a redirect: a 3xx is an answer like any other.
 */
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { responsiveTimeout } from '../responsive-timeout.js';

export { responsiveTimeout };

/** Why an attempt has no status: the receiver's fault, ours, or the mock closing. */
export type AttemptErrorKind = 'timeout' | 'refused' | 'reset' | 'dns' | 'tls' | 'closed' | 'dropped' | 'bad-url' | 'error';

export interface AttemptOutcome {
  url: string;
  /** The receiver's status; null when it gave none. */
  status: number | null;
  durationMs: number;
  errorKind?: AttemptErrorKind;
  /** The raw error code when there is one (ECONNREFUSED, UND_ERR_SOCKET…). */
  errorCode?: string;
  /** The absolute Location of a 3xx, when it parses (only the follow-redirects fault reads it). */
  location?: string;
}

export interface PostOnceOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** Aborts every attempt when the mock closes. */
  closing: AbortSignal;
}

class DeliveryTimedOut extends Error {
  constructor() {
    super('delivery timed out');
    this.name = 'DeliveryTimedOut';
  }
}

export async function postOnce(o: PostOnceOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const cancelTimeout = responsiveTimeout(o.timeoutMs, () => controller.abort(new DeliveryTimedOut()));
  const onClosing = () => controller.abort(o.closing.reason);
  if (o.closing.aborted) onClosing();
  else o.closing.addEventListener('abort', onClosing, { once: true });
  try {
    const response = await request(o.url, {
      method: 'POST',
      headers: o.headers,
      body: o.body,
      dispatcher: o.dispatcher,
      signal: controller.signal,
    });
    await response.body.dump();
    const out: AttemptOutcome = { url: o.url, status: response.statusCode, durationMs: elapsed() };
    // The status came, the body never finished: the timeout ended it.
    if (controller.signal.reason instanceof DeliveryTimedOut) out.errorKind = 'timeout';
    const location = response.headers.location;
    if (typeof location === 'string' && URL.canParse(location, o.url)) out.location = new URL(location, o.url).href;
    return out;
  } catch (err) {
    const reason = controller.signal.reason;
    const code = errorCode(err);
    const errorKind: AttemptErrorKind = reason instanceof DeliveryTimedOut ? 'timeout' : controller.signal.aborted ? 'closed' : kindOf(code);
    return { url: o.url, status: null, durationMs: elapsed(), errorKind, ...(code ? { errorCode: code } : {}) };
  } finally {
    cancelTimeout();
    o.closing.removeEventListener('abort', onClosing);
  }
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown }; name?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return typeof e?.name === 'string' ? e.name : undefined;
}

function kindOf(code: string | undefined): AttemptErrorKind {
  switch (code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'dns';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timeout';
    default:
      return code?.startsWith('ERR_TLS') || code?.includes('CERT') ? 'tls' : 'error';
  }
}

/** How a log line names an outcome: "answered 200 in 12 ms", "timed out after 5000 ms". */
export function describeOutcome(outcome: AttemptOutcome, timeoutMs: number): string {
  if (outcome.status !== null && outcome.errorKind === 'timeout') return `timed out after ${timeoutMs} ms (answered ${outcome.status}, the body never ended)`;
  if (outcome.status !== null) return `answered ${outcome.status} in ${outcome.durationMs} ms`;
  switch (outcome.errorKind) {
    case 'timeout':
      return `timed out after ${timeoutMs} ms`;
    case 'refused':
      return 'failed: connection refused';
    case 'reset':
      return `failed: connection closed by the receiver after ${outcome.durationMs} ms`;
    case 'closed':
      return 'abandoned: the mock is closing';
    case 'dropped':
      return 'dropped: too many deliveries waiting for this receiver';
    case 'bad-url':
      return 'refused: only http: and https: URLs are delivered to';
    default:
      return `failed: ${outcome.errorKind ?? 'error'}${outcome.errorCode ? ` (${outcome.errorCode})` : ''} after ${outcome.durationMs} ms`;
  }
}
