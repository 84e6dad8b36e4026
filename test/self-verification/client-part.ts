/**
 * The client side of `npm run matrix -- --all`: the example application graded by
 * the mock (test/client/support/example.ts), as it is, with each named fault
 * (examples/app/client-faults.ts) and with every generated client fault alone
 * (`ID@dim=value`: caught by its requirement on its own slice); npm test runs the
 * same with a sample of the generated faults (test/client/example-app.test.ts).
 * Under --shard i/n it takes the i-th of n parts (shard.ts), as the receiver part does.
 */
import { CLIENT_FAULTS, type ClientFault } from '../../examples/app/client-faults.js';
import { gradeExample, probesFor } from '../client/support/example.js';
import { judgeConforming, judgeGeneratedFault, judgeNamedFault, judgeVariant, type ClientVerdict } from '../client/support/client-judge.js';
import { CLIENT_VARIANTS, type ClientVariant } from '../../examples/app/client-variants.js';
import { clientSliceFaults } from '../client/support/client-slice-faults.js';
import { partOf, type Shard } from './shard.js';

export interface ClientEntry {
  name: string;
  kind: 'conforming' | 'variant' | 'named' | 'generated';
  run(): Promise<ClientVerdict>;
}

export interface ClientOutcome extends ClientVerdict {
  entry: Pick<ClientEntry, 'name' | 'kind'>;
  durationMs: number;
}

export interface ClientPart {
  outcomes: ClientOutcome[];
  missed: ClientOutcome[];
  lines: string[];
}

/** The conforming example, every named fault, every generated fault alone. */
export function planClientMatrix(): ClientEntry[] {
  return [
    { name: 'conforming', kind: 'conforming', run: async () => judgeConforming((await gradeExample()).judgements) },
    ...(Object.entries(CLIENT_VARIANTS) as Array<[ClientVariant, (typeof CLIENT_VARIANTS)[ClientVariant]]>).map(([name, variant]): ClientEntry => ({
      name: `variant:${name}`, kind: 'variant', run: async () => judgeVariant((await gradeExample([], {}, [name])).judgements, variant.warns, variant.untested),
    })),
    ...(Object.entries(CLIENT_FAULTS) as Array<[ClientFault, (typeof CLIENT_FAULTS)[ClientFault]]>).map(([name, fault]): ClientEntry => ({
      name, kind: 'named', run: async () => judgeNamedFault(fault.requirement, (await gradeExample([name], probesFor(fault.requirement))).judgements),
    })),
    ...clientSliceFaults().map((fault): ClientEntry => ({
      name: fault.name, kind: 'generated', run: async () => judgeGeneratedFault(fault, (await gradeExample([fault.name], probesFor(fault.requirement, fault.dim, fault.value))).judgements),
    })),
  ];
}

/** Figures of the client part, one line each. */
export function clientFigures(outcomes: readonly ClientOutcome[], wallMs: number): string[] {
  const of = (kind: ClientEntry['kind']) => outcomes.filter((o) => o.entry.kind === kind);
  const caught = (list: readonly ClientOutcome[]) => list.filter((o) => o.ok).length;
  const generated = of('generated');
  const requirements = new Set(generated.map((o) => o.entry.name.split('@')[0]));
  return [
    `client: generated slice faults: ${generated.length} over ${requirements.size} requirements, ${caught(generated)} caught on their own slice, ${generated.length - caught(generated)} missed`,
    `client: named faults: ${of('named').length}, ${caught(of('named'))} caught; the conforming example: ${of('conforming').length - caught(of('conforming'))} judged wrongly of ${of('conforming').length}${of('variant').length ? `; legal variants: ${of('variant').length - caught(of('variant'))} judged wrongly of ${of('variant').length}` : ''}`,
    `client: time: ${(wallMs / 1000).toFixed(1)} s wall, ${outcomes.length} gradings`,
  ];
}

export async function runClientPart(opts: { shard?: Shard; concurrency?: number; onOutcome?: (o: ClientOutcome) => void } = {}): Promise<ClientPart> {
  const entries = partOf(planClientMatrix(), opts.shard);
  const started = Date.now();
  const outcomes: ClientOutcome[] = new Array(entries.length);
  let next = 0;
  // A few gradings side by side: each is the mock's and the example's latency more than CPU.
  const worker = async () => {
    for (let i = next++; i < entries.length; i = next++) {
      const entry = entries[i]!;
      const t0 = Date.now();
      let verdict: ClientVerdict;
      try {
        verdict = await entry.run();
      } catch (err) {
        verdict = { ok: false, why: `the grading could not be carried out: ${err instanceof Error ? err.message : String(err)}` };
      }
      outcomes[i] = { entry: { name: entry.name, kind: entry.kind }, ...verdict, durationMs: Date.now() - t0 };
      opts.onOutcome?.(outcomes[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
  return { outcomes, missed: outcomes.filter((o) => !o.ok), lines: clientFigures(outcomes, Date.now() - started) };
}
