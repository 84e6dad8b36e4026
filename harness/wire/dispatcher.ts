/**
 * The harness's connection pool (undici's global dispatcher, for every request the
 * harness sends: suites, control, capture, preflight).
 *
 * A connection left idle is closed by the harness after one second, long before a
 * server closes its end (Node's default keep-alive timeout is 5 s; the reference mock
 * keeps 5 s too). Reusing a connection the target is closing at that very moment loses
 * the request: "the target closed the connection before its answer was complete", a
 * failure of the run's making. undici's own default (4 s, or the server's hint less 1 s)
 * leaves too little room when a loaded machine runs timers late: on a 2-core machine
 * under load a control request failed so. New connections on loopback cost nothing.
 */
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';

/** How long an idle connection is kept for the next request. */
export const IDLE_CONNECTION_MS = 1_000;

const installed = Symbol.for('lockconf.dispatcher');

/** Installs the harness's pool once per process (a thread shares it with its modules). */
export function installDispatcher(): void {
  if ((getGlobalDispatcher() as unknown as Record<symbol, boolean>)[installed]) return;
  const agent = new Agent({ keepAliveTimeout: IDLE_CONNECTION_MS, keepAliveMaxTimeout: IDLE_CONNECTION_MS });
  (agent as unknown as Record<symbol, boolean>)[installed] = true;
  setGlobalDispatcher(agent);
}
