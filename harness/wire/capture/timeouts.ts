/**
 * How long the capture server waits for a client. The request line and headers
 * within 10 s, the whole request (1 MiB at most) within 30 s; a silent socket is
 * closed after 75 s, longer than the longest long poll or answer delay
 * (MAX_WAIT_MS, 60 s), so those still work; an idle keep-alive socket after 10 s.
 */
import { timeoutOptions, type ServerTimeouts } from '../../../mock/server-timeouts.js';
import { MAX_WAIT_MS } from './protocol.js';

/** The same four limits as the mock's (mock/server-timeouts.ts), with the capture server's values. */
export type CaptureTimeouts = ServerTimeouts;

export const CAPTURE_TIMEOUTS: CaptureTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 10_000, idleMs: MAX_WAIT_MS + 15_000 };

/** The fastify options that apply them: the mock's own translation, one place for both servers. */
export const captureTimeoutOptions = timeoutOptions;
