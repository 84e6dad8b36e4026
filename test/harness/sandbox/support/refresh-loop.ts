/**
 * Child process of the kill test: redeems the cached refresh token over and
 * over (refreshAndStore) until it is killed. It reports each phase on stdout,
 * synchronously, so the parent knows where a kill landed:
 *   loaded           modules loaded; waits for a line on stdin (so the parent can start
 *                    the next child while it checks the cache the last one left)
 *   ready            the cache is open, the loop starts
 *   send             the cached refresh token is about to go to the token endpoint
 *   answered         the token response has been read (its successor is not yet stored)
 *   stored           its successor is durable on disk (the verification call follows)
 * The profile (with secrets) comes from the environment, never from argv.
 */
import { writeSync } from 'node:fs';
import { TokenCache } from '../../../../harness/sandbox/token-cache.js';
import { refreshAndStore, refreshDeps, refreshesHalted } from '../../../../harness/sandbox/refresh-chain.js';
import type { TargetProfile } from '../../../../harness/contracts.js';
import { onInterrupt } from '../../../../harness/sandbox/cleanup.js';
import { fetchHttp } from './fetch-http.js';

const profile = JSON.parse(process.env.LOCKCONF_KILL_PROFILE ?? 'null') as TargetProfile;
const path = process.env.LOCKCONF_KILL_CACHE ?? '';
const say = (line: string) => writeSync(1, line + '\n');

// As a run does: a catchable stop first lets the refresh in flight store its answer.
if (process.env.LOCKCONF_KILL_HANDLE_SIGNALS === '1') onInterrupt(async () => {}, { log: () => {} });

// Warm up the HTTP stack, so the kills spread over the loop rather than its first, slow request.
await fetch(profile.authUrl, { redirect: 'manual' }).then((r) => r.arrayBuffer()).catch(() => undefined);
say('loaded');
await new Promise<void>((go) => process.stdin.once('data', () => go()));

const cache = await TokenCache.open(path, { authUrl: profile.authUrl, clientId: profile.clientId });
const deps = refreshDeps(fetchHttp(profile), profile);
say('ready');
for (;;) {
  try {
    await refreshAndStore(cache, {
      redeem: async (rt) => { say('send'); const res = await deps.redeem(rt); say('answered'); return res; },
      verify: (at) => { say('stored'); return deps.verify(at); },
    });
  } catch (err) {
    if (!refreshesHalted()) throw err;
    await new Promise(() => {}); // stopping: the interrupt handler exits
  }
}
