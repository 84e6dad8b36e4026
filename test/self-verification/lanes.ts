/**
 * The lanes of the self-verification matrix (lane.ts): `size` long-lived child
 * processes, each carrying out one run at a time. A lane that dies takes only its
 * run with it (judged as a run that wrote nothing); the next run gets a new lane.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { prebuiltStart, type NodeStart } from '../support/prebuilt.js';
import { MATRIX_DELIVERY_WAIT_MS } from './confirm.js';
import { LANE_ARG, type LaneAnswer, type LaneRequest } from './lane.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface LaneResult {
  exitCode: number | null;
  durationMs: number;
  /** CPU time the lane spent on the run; null when the lane died during it. */
  cpuMs: number | null;
  /** The end of what the lane wrote on stderr during the run. */
  stderr: string;
}

interface Lane {
  child: ChildProcess;
  busy: boolean;
  stderr: string;
  pending: ((r: LaneResult) => void) | null;
  started: number;
}

/** The environment a lane starts with: the caller's, without its lockconf and vitest variables. */
export function laneEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith('LOCKCONF_') && !k.startsWith('VITEST') && k !== 'NODE_ENV' && k !== 'TEST') out[k] = v;
  }
  // The mock delivers within milliseconds: a fault that sends nothing matching is judged after 3 s, not 15.
  // A judgement that rests on this wait is confirmed at the full one before it counts (confirm.ts).
  out.LOCKCONF_DELIVERY_WAIT_MS = String(MATRIX_DELIVERY_WAIT_MS);
  out.NO_COLOR = '1';
  return out;
}

export class LanePool {
  readonly #size: number;
  readonly #lanes: Lane[] = [];
  readonly #waiting: Array<() => void> = [];
  #nextId = 1;
  #closed = false;
  /** lane.ts prebuilt, as the command line is (LOCKCONF_NO_BUILD=1: through tsx). */
  #start: Promise<NodeStart> | null = null;

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  get size(): number {
    return this.#size;
  }

  /** Carry out one run in a free lane (waiting for one if all are busy). */
  async run(req: Omit<LaneRequest, 'id'>): Promise<LaneResult> {
    const lane = await this.#acquire(); // marked busy by #acquire, in the same tick it was found free
    lane.stderr = '';
    lane.started = Date.now();
    const result = await new Promise<LaneResult>((done) => {
      lane.pending = done;
      lane.child.send({ ...req, id: this.#nextId++ } satisfies LaneRequest);
    });
    lane.busy = false;
    lane.pending = null;
    this.#waiting.shift()?.();
    return result;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#lanes.map((lane) => new Promise<void>((done) => {
      if (lane.child.exitCode !== null || lane.child.signalCode !== null) return done();
      lane.child.once('exit', () => done());
      lane.child.disconnect();
    })));
    this.#lanes.length = 0;
  }

  async #acquire(): Promise<Lane> {
    const start = await (this.#start ??= prebuiltStart('matrix-lane', 'test/self-verification/lane.ts'));
    for (;;) {
      if (this.#closed) throw new Error('the lane pool is closed');
      const lane = this.#lanes.find((l) => !l.busy) ?? (this.#lanes.length < this.#size ? this.#spawn(start) : null);
      if (lane) {
        lane.busy = true;
        return lane;
      }
      await new Promise<void>((wake) => this.#waiting.push(wake));
    }
  }

  #spawn(start: NodeStart): Lane {
    const child = fork(start.script, [LANE_ARG], {
      cwd: ROOT,
      env: laneEnv(process.env),
      execArgv: start.execArgv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const lane: Lane = { child, busy: false, stderr: '', pending: null, started: Date.now() };
    child.stderr!.on('data', (chunk: Buffer) => { lane.stderr = (lane.stderr + chunk.toString()).slice(-4000); });
    child.on('message', (answer: LaneAnswer) => {
      lane.pending?.({ exitCode: answer.exitCode, durationMs: answer.durationMs, cpuMs: answer.cpuMs, stderr: lane.stderr });
    });
    child.on('exit', (code, signal) => {
      const at = this.#lanes.indexOf(lane);
      if (at >= 0) this.#lanes.splice(at, 1);
      // A lane that died mid-run: its run wrote nothing (or not all); the next run gets a new lane.
      lane.pending?.({ exitCode: null, durationMs: Date.now() - lane.started, cpuMs: null, stderr: `${lane.stderr}\n[the lane ended: ${signal ?? `exit ${code}`}]` });
      this.#waiting.shift()?.();
    });
    this.#lanes.push(lane);
    return lane;
  }
}
