/**
 * The harness's connection pool (undici's global dispatcher, for every request the
 * harness sends: suites, control, capture, preflight, and client mode's probes, HTTP
 * driver and grading calls; each module that sends installs it on load).
 *
 * A connection left idle is closed by the harness after one second, long before a
 * server closes its end (Node's default keep-alive timeout is 5 s; the reference mock
 * keeps 30 s). Reusing a connection the target is closing at that very moment loses
 * the request: "the target closed the connection before its answer was complete", a
 * failure of the run's making. undici's own default (4 s, or the server's hint less 2 s)
 * is longer than some servers keep a connection without saying so, and leaves too little
 * room when a loaded machine runs timers late: on a 2-core machine under load a control
 * request failed so. New connections on loopback cost nothing.
 */
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';

/** How long an idle connection is kept for the next request. */
export const IDLE_CONNECTION_MS = 1_000;

/**
 * The pool's settings: an idle connection closed after IDLE_CONNECTION_MS, whatever longer
 * time a server's hint (Keep-Alive: timeout=N) allows. undici retries no request whose
 * connection closes under it (only a pipelined request not yet sent is dispatched again), so
 * a request is never sent twice (a refresh token never spent twice): the guard against a
 * connection the server is closing is to have dropped it first.
 * test/harness/wire/dispatcher-keep-alive.test.ts reproduces the race these settings avoid.
 */
export const HARNESS_AGENT_OPTIONS = { keepAliveTimeout: IDLE_CONNECTION_MS, keepAliveMaxTimeout: IDLE_CONNECTION_MS } as const satisfies Agent.Options;

const installed = Symbol.for('lockconf.dispatcher');

/** Installs the harness's pool once per process (a thread shares it with its modules). */
export function installDispatcher(): void {
  if ((getGlobalDispatcher() as unknown as Record<symbol, boolean>)[installed]) return;
  const agent = new Agent(HARNESS_AGENT_OPTIONS);
  (agent as unknown as Record<symbol, boolean>)[installed] = true;
  setGlobalDispatcher(agent);
}
