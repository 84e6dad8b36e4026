/**
 * How long the mock waits for a client (finding: a stalled request body kept a
 * socket open forever). Generous enough for a slow but honest client, short
 * enough that a slowloris cannot hold sockets: the headers within 10 s, the
 * whole request (64 KiB at most) within 30 s, an idle keep-alive socket 30 s, a
 * silent socket 60 s. The keep-alive time is long on purpose: a client drops an idle
 * connection a little before the server's hint (timeout=N), and on a loaded machine its
 * timer runs late; with 5 s, a sign-in step or control call that came 5 s after the last
 * one met a connection the mock was closing ("closed the connection before its answer",
 * a reset), as in a sign-in started before a flood from another address.
 */
export interface ServerTimeouts {
  /** Node's headersTimeout: the request line and headers must arrive within this. */
  headersMs: number;
  /** Node's requestTimeout: the whole request, body included. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
  /** Socket inactivity (fastify's connectionTimeout). */
  idleMs: number;
}

export const MOCK_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 30_000, idleMs: 60_000 };

/** The fastify options that apply the timeouts (Node checks request and header timeouts every checkMs). */
export function timeoutOptions(t: ServerTimeouts) {
  const requestMs = Math.max(t.requestMs, t.headersMs);
  return {
    requestTimeout: requestMs,
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    http: {
      headersTimeout: t.headersMs,
      requestTimeout: requestMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(t.headersMs / 4))),
    },
  };
}
