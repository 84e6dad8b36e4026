/**
 * The harness's connection pool (harness/wire/dispatcher.ts) against a server that closes an
 * idle keep-alive connection (test/support/idle-closing-peer.ts): a request sent on a
 * connection the server is closing is lost ("the target closed the connection before its
 * answer was complete", issue 35, finding 7). The race is made certain and no real time is
 * waited out: the pool's keep-alive timer and the server's idle clock are both moved by the
 * test (fake setTimeout and Date), and the server drops a request that reaches a connection
 * past its limit. undici's defaults (an idle connection kept 4 s, the pool before the fix)
 * lose the second of two requests sent between the server's limit and 4 s apart; the
 * harness's settings (1 s) lose none against any server keeping a connection longer than 1 s.
 * undici sends no lost request again, idempotent or not (a refresh token is never spent twice).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Agent, getGlobalDispatcher, request, setGlobalDispatcher } from 'undici';
import { HARNESS_AGENT_OPTIONS, IDLE_CONNECTION_MS } from '../../../harness/wire/dispatcher.js';
import { idleClosingPeer } from '../../support/idle-closing-peer.js';
import { MOCK_TIMEOUTS } from '../../../mock/server-timeouts.js';
import { createServer } from 'node:http';

/** The pool before the fix: undici's own defaults (idle 4 s, or a server's hint less 2 s). */
const OLD_AGENT_OPTIONS = {};
const UNDICI_DEFAULT_IDLE_MS = 4_000;
/** A server closing idle connections after 2 s, saying nothing of it (some servers' default). */
const PEER_LIMIT_MS = 2_000;
/** How long the harness stays idle between two requests: below, at and above each limit. */
const GAPS = [0, 500, 999, 1_000, 1_500, 1_999, 2_000, 2_500, 3_999, 4_000, 6_000];

type Outcome = { second: 'answered' | string; arrivals: number; lost: number; connections: number };

/** One request, `gapMs` of idleness (both clocks moved), then another: what became of the second. */
async function twoRequests(options: Agent.Options, peerLimitMs: number, gapMs: number, method: 'GET' | 'POST' = 'GET'): Promise<Outcome> {
  const peer = await idleClosingPeer(peerLimitMs);
  const agent = new Agent(options);
  const send = async () => {
    const answer = await request(`${peer.url}/step`, { method, dispatcher: agent, ...(method === 'POST' ? { body: 'grant_type=refresh_token', headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}) });
    await answer.body.text();
  };
  try {
    await send();
    await vi.advanceTimersByTimeAsync(gapMs);
    // Real turns of the event loop (setImmediate is not faked): a connection the pool closed is gone before the next request.
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    let second = 'answered';
    try {
      await send();
    } catch (err) {
      second = err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err);
    }
    return { second, arrivals: peer.arrivals(), lost: peer.lost(), connections: peer.connections() };
  } finally {
    await agent.close();
    await peer.close();
  }
}

describe('Keep-alive: the harness drops an idle connection before the server closes it', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(GAPS)('with undici\'s defaults (the pool before the fix), a second request %i ms after the first is lost exactly when the server\'s limit has passed and the pool\'s has not', async (gap) => {
    const outcome = await twoRequests(OLD_AGENT_OPTIONS, PEER_LIMIT_MS, gap);
    const raced = gap >= PEER_LIMIT_MS && gap < UNDICI_DEFAULT_IDLE_MS;
    expect(outcome.second === 'answered', outcome.second).toBe(!raced);
    if (raced) expect(outcome).toEqual({ second: expect.stringContaining('UND_ERR_SOCKET'), arrivals: 2, lost: 1, connections: 1 });
  });

  it.each(GAPS)('with the harness\'s settings, a second request %i ms after the first is answered', async (gap) => {
    const outcome = await twoRequests(HARNESS_AGENT_OPTIONS, PEER_LIMIT_MS, gap);
    expect(outcome).toEqual({ second: 'answered', arrivals: 2, lost: 0, connections: gap >= IDLE_CONNECTION_MS ? 2 : 1 });
  });

  it('keeps an idle connection shorter than the reference mock and Node\'s default server do', () => {
    expect(IDLE_CONNECTION_MS).toBeLessThan(MOCK_TIMEOUTS.keepAliveMs);
    expect(IDLE_CONNECTION_MS).toBeLessThan(createServer().keepAliveTimeout);
  });

  it('with the harness\'s settings, no request is lost against any server that keeps an idle connection longer than the harness, whatever the gap', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: IDLE_CONNECTION_MS + 1, max: 60_000 }), fc.double({ min: 0, max: 2, noNaN: true }), async (limit, share) => {
        const outcome = await twoRequests(HARNESS_AGENT_OPTIONS, limit, Math.round(limit * share));
        expect(outcome.lost).toBe(0);
        expect(outcome.second).toBe('answered');
      }),
      { numRuns: 25, seed: 35_7 },
    );
  });

  it.each(['GET', 'POST'] as const)('sends a %s lost with its connection once only: the caller sees the failure, the server saw one attempt', async (method) => {
    // A POST sent twice could spend a refresh token twice; undici retries neither, so the guard is the shorter keep-alive alone.
    const gap = (PEER_LIMIT_MS + UNDICI_DEFAULT_IDLE_MS) / 2;
    expect(await twoRequests(OLD_AGENT_OPTIONS, PEER_LIMIT_MS, gap, method)).toEqual({ second: expect.stringContaining('UND_ERR_SOCKET'), arrivals: 2, lost: 1, connections: 1 });
    expect(await twoRequests(HARNESS_AGENT_OPTIONS, PEER_LIMIT_MS, gap, method)).toEqual({ second: 'answered', arrivals: 2, lost: 0, connections: 2 });
  });
});

/** The modules of each mode that send requests with undici's global pool: loading one installs the harness's. */
const SENDERS = [
  'harness/wire/http.ts', // service mode, the control protocol, login
  'harness/client/probe-steps.ts', // client mode: the probes' control calls
  'harness/client/drivers/http.ts', // client mode: the HTTP driver's browser
  'harness/client/grading-client.ts', // client mode: the grading mock's recording
  'harness/commands/client.ts', // client mode: the command's checks of the grading mock
];

describe('Keep-alive: every mode sends through the harness\'s pool', () => {
  const before = getGlobalDispatcher();
  afterEach(() => {
    setGlobalDispatcher(before);
  });

  it.each(SENDERS)('loading %s installs it', async (file) => {
    const plain = new Agent();
    setGlobalDispatcher(plain);
    vi.resetModules();
    await import(`../../../${file}`);
    expect(getGlobalDispatcher(), `${file} sends with undici's defaults`).not.toBe(plain);
    expect((getGlobalDispatcher() as unknown as Record<symbol, boolean>)[Symbol.for('lockconf.dispatcher')]).toBe(true);
    await plain.close();
  });
});

