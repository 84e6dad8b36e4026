/**
 * The refresh chain survives SIGKILL. A child process redeems the cached refresh
 * token in a loop (refreshAndStore: mark, redeem, store, verify); the parent
 * kills it at random moments, then checks that the cache parses and holds a
 * refresh token the service still redeems, stores the result and goes on.
 *
 * One window cannot be closed by any client: between the moment the service
 * redeems the token and the moment its successor is on disk, the new token
 * exists only in the answer in flight. The child reports its phase, so a loss is
 * accepted only when the kill landed in that window ("send" was the last phase);
 * a loss anywhere else fails the test. Losses in the window are counted and the
 * chain is re-seeded by a fresh sign-in.
 *
 * A catchable stop (SIGTERM, as Ctrl-C or a cancelled CI job sends) is handled
 * by harness/sandbox/cleanup.ts onInterrupt, which lets the refresh in flight store its
 * answer before exiting: there, no loss at all is accepted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenCache, type TokenCacheTarget } from '../../../harness/sandbox/token-cache.js';
import { refreshDeps } from '../../../harness/sandbox/refresh-chain.js';
import { makeTmpDir, removeTmpDir } from '../../support/tmp.js';
import { prebuiltStart, type NodeStart } from '../../support/prebuilt.js';
import { fetchHttp } from './support/fetch-http.js';
import { startKillTarget, type KillTarget } from './support/kill-target.js';
import { mulberry32 } from '../../../mock/jitter.js';

/**
 * The kill points: one in each of KILLS equal strata of 0..MAX_DELAY_MS after the loop
 * starts, at a random place within it (stratified sampling). They cover the loop's
 * phases as evenly as 30 purely random points did, with 20 children instead of 30
 * (each stop starts a child: about a third of a CPU-second). LOCKCONF_KILLS sets more.
 */
const KILLS = Number(process.env.LOCKCONF_KILLS ?? 20);
const MAX_DELAY_MS = 150;
/**
 * Each stop starts a child (the loop and the harness's modules, prebuilt: plain node,
 * no tsx). Under `npm test` the other files and the self-verification matrix's runs share
 * the cores, so the loop gets a budget well beyond what it needs alone; it waits on nothing.
 */
const KILL_TEST_BUDGET_MS = 180_000;

let target: KillTarget;
let dir: string;
/** How a child starts: support/refresh-loop.ts prebuilt once per file (test/support/prebuilt.ts). */
let loop: NodeStart;
const alive = new Set<ChildProcess>();

beforeAll(async () => {
  target = await startKillTarget();
  dir = await makeTmpDir('kill');
  loop = await prebuiltStart('kill-refresh-loop', 'test/harness/sandbox/support/refresh-loop.ts');
});
afterAll(async () => {
  for (const child of alive) child.kill('SIGKILL'); // a failed test leaves no loop running
  await target?.close();
  await removeTmpDir(dir);
});

interface Child { phases: string[]; exit: Promise<void>; go(): Promise<void>; kill(): void }

/** Spawns a loop child and resolves once it has loaded its modules; go() opens the cache and starts the loop. */
function spawnChild(cachePath: string, signal: NodeJS.Signals): Promise<Child> {
  const child = spawn(process.execPath, [...loop.execArgv, loop.script], {
    env: {
      ...process.env,
      LOCKCONF_KILL_PROFILE: JSON.stringify(target.profile),
      LOCKCONF_KILL_CACHE: cachePath,
      LOCKCONF_KILL_HANDLE_SIGNALS: signal === 'SIGKILL' ? '0' : '1',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  alive.add(child);
  const phases: string[] = [];
  const waiting = new Map<string, () => void>();
  let stderr = '';
  let buffered = '';
  let exited = false;
  const exit = new Promise<void>((ok) => child.once('exit', () => { exited = true; alive.delete(child); ok(); }));
  const phase = (name: string) => new Promise<void>((ok, fail) => {
    if (phases.includes(name)) return ok();
    const timer = setTimeout(() => { child.kill('SIGKILL'); fail(new Error(`child never reached "${name}": ${stderr.slice(0, 500)}`)); }, 20_000);
    waiting.set(name, () => { clearTimeout(timer); ok(); });
    void exit.then(() => { clearTimeout(timer); if (!phases.includes(name)) fail(new Error(`child exited before "${name}": ${stderr.slice(0, 500)}`)); });
  });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      phases.push(line);
      waiting.get(line)?.();
    }
  });
  const handle: Child = {
    phases,
    exit,
    go: async () => { child.stdin.write('go\n'); await phase('ready'); },
    kill: () => { if (!exited) child.kill(signal); },
  };
  return phase('loaded').then(() => handle);
}

interface Tally { survived: number; lostInFlight: number; refreshesByChildren: number; lastPhase: Record<string, number> }

/**
 * Starts the refresh loop `kills` times and stops it with `signal` at a random
 * moment (one in each of `kills` strata of the delay range); after each stop, redeems what the cache holds (as the next run would),
 * stores the answer, and goes on. A refused token is accepted only when
 * `allowLossInFlight` and the stop landed between "send" and "stored".
 */
async function killLoop(name: string, signal: NodeJS.Signals, kills: number, allowLossInFlight: boolean): Promise<Tally> {
  const seed = Number(process.env.LOCKCONF_SEED ?? Date.now() % 2 ** 31);
  const random = mulberry32(seed); // seeded, so a failing run can be replayed with LOCKCONF_SEED
  const cachePath = join(dir, name, 'tokens.json');
  await mkdir(join(dir, name), { mode: 0o700 });
  const cacheTarget: TokenCacheTarget = { authUrl: target.profile.authUrl, clientId: target.profile.clientId };
  const deps = refreshDeps(fetchHttp(target.profile), target.profile);
  await (await TokenCache.open(cachePath, cacheTarget)).storePair(await target.signIn());

  const tally: Tally = { survived: 0, lostInFlight: 0, refreshesByChildren: 0, lastPhase: {} };
  const started = Date.now();
  let next = spawnChild(cachePath, signal);
  for (let i = 0; i < kills; i++) {
    const run = await next;
    await run.go();
    next = spawnChild(cachePath, signal); // loads while this one runs and is checked
    await sleep(Math.floor(((i + random()) / kills) * MAX_DELAY_MS)); // the random kill point in stratum i, not a wait for an outcome
    run.kill();
    await run.exit;
    await sleep(5); // let the last stdout bytes of the dead child drain
    const last = run.phases.at(-1) ?? 'none';
    tally.lastPhase[last] = (tally.lastPhase[last] ?? 0) + 1;
    tally.refreshesByChildren += run.phases.filter((p) => p === 'stored').length;

    // The file parses, is still 0600, and holds a pair (open() also clears the dead writer's temporaries).
    const cache = await TokenCache.open(cachePath, cacheTarget);
    const record = cache.current();
    expect(record, `${signal} ${i}: the cache is empty`).not.toBeNull();
    expect((await stat(cachePath)).mode & 0o777).toBe(0o600);

    const res = await deps.redeem(record!.refreshToken);
    if (res.status === 200) {
      expect(await cache.recordRefreshResponse(record!.refreshToken, res)).toBe(true);
      expect((await deps.verify(cache.current()!.accessToken)).status).toBe(200);
      tally.survived++;
    } else {
      const why = `${signal} ${i} (seed ${seed}): the cached token was refused (HTTP ${res.status}); the stop landed after "${last}"`;
      expect(allowLossInFlight, why).toBe(true);
      expect(['send', 'answered'], why).toContain(last);
      tally.lostInFlight++;
      await cache.storePair(await target.signIn()); // a fresh sign-in restarts the chain
    }
  }
  const spare = await next;
  spare.kill();
  await spare.exit;
  process.stdout.write(`kill test ${signal}: seed ${seed}, ${kills} stops in ${((Date.now() - started) / 1000).toFixed(1)} s, `
    + `${tally.refreshesByChildren} refreshes by the children, survived ${tally.survived}, lost in flight ${tally.lostInFlight}, `
    + `last phase at the stop ${JSON.stringify(tally.lastPhase)}\n`);
  expect(await readdir(join(dir, name))).toEqual(['tokens.json']);
  expect(tally.survived + tally.lostInFlight).toBe(kills);
  return tally;
}

describe('token cache under kills', () => {
  test(`SIGKILL at ${KILLS} random points of a refresh loop: the chain is lost only while an answer is in flight`, async () => {
    const tally = await killLoop('sigkill', 'SIGKILL', KILLS, true);
    // Most kills landed inside the loop (not before its first refresh), and most left a working token.
    expect(KILLS - (tally.lastPhase.ready ?? 0)).toBeGreaterThanOrEqual(KILLS / 2);
    expect(tally.survived).toBeGreaterThan(tally.lostInFlight);
  }, KILL_TEST_BUDGET_MS);

  test('SIGTERM (Ctrl-C, a cancelled CI job) at random points: the refresh in flight is stored first, the chain is never lost', async () => {
    const tally = await killLoop('sigterm', 'SIGTERM', Math.max(3, Math.round(KILLS / 5)), false);
    expect(tally.lostInFlight).toBe(0);
    expect(tally.refreshesByChildren).toBeGreaterThan(0);
  }, KILL_TEST_BUDGET_MS);
});
