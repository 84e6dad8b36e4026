/**
 * `npm run matrix`: the self-verification matrix from the command line.
 *
 *   npm run matrix                 every catalogued fault and npm test's sample of the generated ones
 *                                  (npm test runs one fault per requirement: sample.ts)
 *   npm run matrix -- --all        every generated slice fault as well (slice-faults.ts), then the
 *                                  receiver matrix and the client's gradings with every generated
 *                                  receiver and client fault alone (receiver-part.ts, client-part.ts;
 *                                  npm test runs a sample of each)
 *   npm run matrix -- --shard 2/4  the second of four parts (deterministic, as vitest --shard):
 *                                  CI jobs of a matrix each run one
 *   npm run matrix -- --faults TOKEN-BASIC-IGNORED,token-endpoint   a selection (as LOCKCONF_MATRIX_FAULTS)
 *
 * Prints each entry's judgement and the figures (faults, caught, missed, collateral, time);
 * exits 1 when any fault was missed, anything conforming failed, or a fault failed more than
 * MAX_COLLATERAL other requirements (as npm test's kill matrix), 2 on bad usage.
 */
import { parseArgs } from 'node:util';
import { formatTable } from './matrix-report.js';
import { describeConfirmation } from './confirm.js';
import { MAX_COLLATERAL, cascades, generatedFigures, runSession } from './matrix-session.js';
import { runReceiverPart, type ReceiverPart } from './receiver-part.js';
import { runClientPart, type ClientPart } from './client-part.js';

function usage(message: string): never {
  process.stderr.write(`npm run matrix: ${message}\nusage: npm run matrix -- [--all] [--shard i/n] [--faults <names, IDs or areas>] [--concurrency n] [--seed n] [--scope area|full]\n`);
  process.exit(2);
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        all: { type: 'boolean', default: false },
        shard: { type: 'string' },
        faults: { type: 'string' },
        concurrency: { type: 'string' },
        seed: { type: 'string' },
        scope: { type: 'string' },
        quiet: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  let shard: { index: number; count: number } | undefined;
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) usage(`--shard ${values.shard}: expected i/n with 1 <= i <= n`);
    shard = { index: Number(m[1]), count: Number(m[2]) };
  }
  const num = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) usage(`--${name} ${v}: expected a positive integer`);
    return n;
  };
  if (values.scope !== undefined && values.scope !== 'area' && values.scope !== 'full') usage(`--scope ${values.scope}: expected area or full`);
  const concurrency = num('concurrency', values.concurrency);
  // One line per judged entry (only the misses with --quiet): `side` names the receiver's and the client's.
  const printOutcome = (side: string) => (o: { ok: boolean; entry: { name: string }; why: string; durationMs: number }, extra = '') => {
    if (!values.quiet || !o.ok) process.stdout.write(`  ${o.ok ? 'ok    ' : 'MISSED'} ${side}${o.entry.name}: ${o.why} (${(o.durationMs / 1000).toFixed(1)} s)${extra}\n`);
  };
  const seed = num('seed', values.seed) ?? 20261122;
  let result;
  try {
    result = await runSession({
      scope: values.scope === 'full' ? 'full' : 'area',
      seed,
      filter: values.faults?.trim() || null,
      slices: values.all ? 'all' : 'sample',
      // --all judges every legal variant on every suite; the sample (as npm test) on the areas each one reaches.
      variants: values.all ? 'full' : 'touched',
      ...(shard ? { shard } : {}),
      ...(concurrency ? { concurrency } : {}),
      onOutcome: (o) => printOutcome('')(o, describeConfirmation(o.confirmed)),
    });
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  // The application side under --all (a --faults selection names the service's faults only).
  let receiver: ReceiverPart | null = null;
  let client: ClientPart | null = null;
  if (values.all && !values.faults) {
    receiver = await runReceiverPart({
      ...(shard ? { shard } : {}),
      ...(concurrency ? { children: concurrency } : {}),
      onOutcome: printOutcome('receiver '),
    });
    client = await runClientPart({
      ...(shard ? { shard } : {}),
      onOutcome: printOutcome('client '),
    });
  }
  const { summary, outcomes, wallTimeMs } = result;
  if (!values.quiet) process.stdout.write(`\n${formatTable(summary)}\n`);
  const gen = generatedFigures(outcomes);
  const missed = outcomes.filter((o) => !o.ok);
  const excess = cascades(outcomes);
  process.stdout.write([
    '',
    `matrix${shard ? ` shard ${shard.index}/${shard.count}` : ''}${values.all ? ' --all' : ''}: ${summary.faults} faults, ${summary.faultsCaught} caught, ${summary.faults - summary.faultsCaught} missed`,
    `  generated slice faults: ${gen.faults} over ${gen.requirements} requirements, ${gen.caught} caught, ${gen.faults - gen.caught} missed`,
    `  catalogued faults: ${summary.faults - gen.faults}, ${summary.faultsCaught - gen.caught} caught`,
    `  conforming mock and ${summary.variants} variants: ${summary.falseFailures} false failures; scope checks ${summary.scopeChecksAgreeing}/${summary.scopeChecks} agree`,
    `  resting on time: ${summary.confirmations.confirmed} judgement(s) confirmed by a run at full strictness, ${summary.confirmations.overturned} overturned (confirm.ts)`,
    `  collateral: at most ${summary.collateral.max} other requirements failed by one fault${summary.collateral.worst ? ` (${summary.collateral.worst})` : ''}, mean ${summary.collateral.mean}; ${excess.length} over ${MAX_COLLATERAL}`,
    `  time: ${(wallTimeMs / 1000).toFixed(1)} s wall${summary.cpuTimeMs !== null ? `, ${(summary.cpuTimeMs / 1000).toFixed(0)} s CPU` : ''}, ${summary.runs} runs, ${summary.concurrency} at a time, seed ${summary.seed}`,
    ...(receiver ? receiver.lines.map((line) => `  ${line}`) : []),
    ...(client ? client.lines.map((line) => `  ${line}`) : []),
    ...missed.map((o) => `  MISSED ${o.entry.name}: ${o.why}`),
    ...(receiver ? receiver.missed.map((o) => `  MISSED receiver ${o.entry.name}: ${o.why}`) : []),
    ...(client ? client.missed.map((o) => `  MISSED client ${o.entry.name}: ${o.why}`) : []),
    ...excess.map((line) => `  COLLATERAL over ${MAX_COLLATERAL}: ${line}`),
    '',
  ].join('\n'));
  return missed.length > 0 || excess.length > 0 || (receiver?.missed.length ?? 0) > 0 || (client?.missed.length ?? 0) > 0 ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`npm run matrix: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
