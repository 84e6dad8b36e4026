/**
 * How long the capture server waits for a client. The request line and headers
 * within 10 s, the whole request (1 MiB at most) within 30 s; a silent socket is
 * closed after 75 s, longer than the longest long poll or answer delay
 * (MAX_WAIT_MS, 60 s), so those still work; an idle keep-alive socket after 10 s.
 */
import { MAX_WAIT_MS } from './protocol.js';

export interface CaptureTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  idleMs: number;
}

export const CAPTURE_TIMEOUTS: CaptureTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 10_000, idleMs: MAX_WAIT_MS + 15_000 };

export function captureTimeoutOptions(t: CaptureTimeouts) {
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
