/**
 * A network failure in words. undici and Node report what went wrong as codes
 * (UND_ERR_HEADERS_TIMEOUT, ECONNREFUSED, …); a user reads what happened and
 * what it suggests. Every message the harness shows about a failed exchange
 * goes through describeNetworkError, the one place these codes are translated.
 * Operating-system codes (ECONNREFUSED…) stay in parentheses after the words,
 * as something to search for; undici's own codes never appear.
 */

export interface NetworkErrorContext {
  /** The time allowed for the answer (headers, body, or the whole exchange), in ms. */
  timeoutMs?: number;
  /** Whether the status and headers had arrived when it failed (unknown when absent). */
  answered?: boolean;
}

type Wording = (ctx: NetworkErrorContext) => string;

function seconds(ms: number | undefined): string {
  if (ms === undefined) return 'the time allowed';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** Codes → words. Keys are undici's (UND_ERR_*), Node's (ERR_*) and the operating system's (E*). */
const WORDS: Record<string, Wording> = {
  UND_ERR_HEADERS_TIMEOUT: (c) => `the target accepted the connection but sent no answer within ${seconds(c.timeoutMs)}`,
  UND_ERR_BODY_TIMEOUT: (c) => `the target sent the status and headers, then nothing more of the body for ${seconds(c.timeoutMs)}`,
  UND_ERR_CONNECT_TIMEOUT: () => 'the connection could not be opened within 10 s (a wrong address, or a firewall that drops packets)',
  UND_ERR_SOCKET: () => 'the target closed the connection before its answer was complete',
  UND_ERR_CLOSED: () => 'the connection was closed before the answer was complete',
  UND_ERR_DESTROYED: () => 'the connection was closed before the answer was complete',
  UND_ERR_ABORTED: (c) => `no complete answer within ${seconds(c.timeoutMs)}`,
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: () => 'the request body did not match its Content-Length',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: () => 'the answer ended before (or went on after) the length its Content-Length header announced',
  UND_ERR_RESPONSE_EXCEEDED_MAX_SIZE: () => 'the answer was larger than the harness reads',
  UND_ERR_INFO: () => 'the target sent an answer the HTTP client cannot use',
  UND_ERR_NOT_SUPPORTED: () => 'the target sent an answer the HTTP client does not support',
  UND_ERR_INVALID_ARG: () => 'the request could not be made (an invalid address or header)',
  ERR_INVALID_URL: () => 'the address is not a valid URL',
  HPE_INVALID_CONSTANT: () => 'the answer is not valid HTTP/1.1',
  HPE_INVALID_HEADER_TOKEN: () => 'the answer carries a malformed header',
  HPE_INVALID_CHUNK_SIZE: () => 'the answer carries a malformed chunked body',
  HPE_HEADER_OVERFLOW: () => 'the answer\'s headers are too large',
  ECONNREFUSED: () => 'nothing listens at that address and port (connection refused)',
  ECONNRESET: () => 'the target reset the connection before its answer was complete',
  EPIPE: () => 'the target closed the connection while the request was being sent',
  ETIMEDOUT: () => 'the connection timed out (no answer from that address)',
  ENOTFOUND: () => 'the host name could not be resolved (check the spelling, or DNS on this machine)',
  EAI_AGAIN: () => 'the host name could not be resolved right now (DNS did not answer)',
  EHOSTUNREACH: () => 'there is no route to that host from this machine',
  ENETUNREACH: () => 'the network of that address cannot be reached from this machine',
  EADDRNOTAVAIL: () => 'that address is not one of this machine\'s',
  EADDRINUSE: () => 'that port is already in use',
  EACCES: () => 'the operating system refused (a port below 1024 needs privileges)',
  DEPTH_ZERO_SELF_SIGNED_CERT: () => 'the target\'s TLS certificate is self-signed and not trusted here (NODE_EXTRA_CA_CERTS names a CA file to trust)',
  SELF_SIGNED_CERT_IN_CHAIN: () => 'the target\'s TLS certificate chain ends in a CA not trusted here (NODE_EXTRA_CA_CERTS names a CA file to trust)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: () => 'the target\'s TLS certificate cannot be verified (an incomplete chain, or a CA not trusted here)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: () => 'the target\'s TLS certificate was issued by a CA not trusted here (NODE_EXTRA_CA_CERTS names a CA file to trust)',
  CERT_HAS_EXPIRED: () => 'the target\'s TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: () => 'the target\'s TLS certificate is for another host name',
  ERR_SSL_WRONG_VERSION_NUMBER: () => 'TLS was spoken to a port that answers plain HTTP (http:// instead of https://?)',
};

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
}

/** The first code found on the error, its cause, or the errors of an AggregateError (a host with several addresses). */
function codeOf(err: unknown, depth = 0): string | null {
  if (!err || typeof err !== 'object' || depth > 4) return null;
  const e = err as ErrorLike;
  if (typeof e.code === 'string' && e.code !== '') return e.code;
  for (const inner of e.errors ?? []) {
    const c = codeOf(inner, depth + 1);
    if (c) return c;
  }
  return codeOf(e.cause, depth + 1);
}

function isTimeout(err: unknown): boolean {
  const e = err as ErrorLike | null;
  return e?.name === 'TimeoutError' || (e?.name === 'AbortError' && (e.cause as ErrorLike | undefined)?.name === 'TimeoutError');
}

/** What went wrong, in words; the operating system's code (never undici's) in parentheses. */
export function describeNetworkError(err: unknown, ctx: NetworkErrorContext = {}): string {
  if (isTimeout(err)) {
    if (ctx.answered === true) return `the status and headers came, but not the whole body within ${seconds(ctx.timeoutMs)}`;
    if (ctx.answered === false) return `no answer within ${seconds(ctx.timeoutMs)}`;
    return `no complete answer within ${seconds(ctx.timeoutMs)}`;
  }
  const code = codeOf(err);
  const words = code ? WORDS[code] : undefined;
  if (words) return /^E[A-Z]+$/.test(code!) ? `${words(ctx)} (${code})` : words(ctx);
  const message = (err as ErrorLike | null)?.message ?? String(err);
  // An unmapped code: the message, with an undici code left out of sight.
  if (code && /^UND_ERR_/.test(code)) return message || 'the exchange failed';
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** undici's messages for its codes, as they show up in a message that was passed on as text. */
const UNDICI_MESSAGES: Record<string, string> = {
  'Headers Timeout Error': 'UND_ERR_HEADERS_TIMEOUT',
  'Body Timeout Error': 'UND_ERR_BODY_TIMEOUT',
  'Connect Timeout Error': 'UND_ERR_CONNECT_TIMEOUT',
  'other side closed': 'UND_ERR_SOCKET',
};

/**
 * A message that reached the run's end as text (a setup step that passed an error's
 * message on): every undici code or message in it replaced by its words, so that no
 * report or terminal line shows UND_ERR_HEADERS_TIMEOUT. The last line of defence;
 * the first is describeNetworkError where the exchange failed.
 */
export function networkWordsIn(text: string): string {
  let out = text.replace(/\b(?:HeadersTimeout|BodyTimeout|ConnectTimeout|Socket|RequestAborted)Error: /g, '');
  for (const [message, code] of Object.entries(UNDICI_MESSAGES)) out = out.split(message).join(WORDS[code]!({}));
  return out.replace(/\b(?:[A-Za-z]+Error: )?(UND_ERR_[A-Z_]+)\b/g, (_all, code: string) => WORDS[code]?.({}) ?? 'the connection failed');
}

/** The codes with words (for the test that every one reads as words). */
export const WORDED_CODES: readonly string[] = Object.keys(WORDS);
