/**
 * How deep a run explored (suites/explore): the seed, the budget, the sequences and
 * commands run (webhook sequences among them) and whether the time bound ended it, read
 * from the observation `exploration` its exploration tests record. conformance.json
 * carries it as `exploration` (additive); the certificate summary and `lockconf compare`
 * show it.
 */

export interface ExplorationDepth {
  seed: number | null;
  /** Sequences and commands run, webhook sequences included. */
  sequences: number;
  commands: number;
  /** Of those, the webhook sequences and their commands. */
  hookSequences: number;
  hookCommands: number;
  /** The budget asked for (sequences, commands per sequence, webhook sequences, their commands, the time bound in ms). */
  budget: { sequences: number; commands: number; hookSequences?: number; hookCommands?: number; timeMs: number } | null;
  interrupted: boolean;
}

interface WithObservations {
  observations?: ReadonlyArray<{ label: string; value: unknown }>;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The run's exploration depth, or null when no exploration test recorded one. */
export function explorationDepth(requirements: readonly WithObservations[]): ExplorationDepth | null {
  for (const r of requirements) {
    for (const o of r.observations ?? []) {
      if (o.label !== 'exploration' || !o.value || typeof o.value !== 'object') continue;
      const v = o.value as Record<string, unknown>;
      const b = v.budget && typeof v.budget === 'object' ? v.budget as Record<string, unknown> : null;
      return {
        seed: num(v.seed),
        sequences: num(v.sequences) ?? 0,
        commands: num(v.commands) ?? 0,
        hookSequences: num(v.hookSequences) ?? 0,
        hookCommands: num(v.hookCommands) ?? 0,
        budget: b ? {
          sequences: num(b.sequences) ?? 0, commands: num(b.commands) ?? 0, timeMs: num(b.timeMs) ?? 0,
          ...(num(b.hookSequences) !== null ? { hookSequences: num(b.hookSequences)! } : {}),
          ...(num(b.hookCommands) !== null ? { hookCommands: num(b.hookCommands)! } : {}),
        } : null,
        interrupted: v.interrupted === true,
      };
    }
  }
  return null;
}

/** "20 sequences, 649 commands (3 of them webhook sequences, 90 commands), seed 42" (and the time bound, when it ended the exploration). */
export function describeDepth(d: ExplorationDepth | null | undefined): string {
  if (!d) return 'not recorded (no exploration ran)';
  const hooks = d.hookSequences > 0 ? ` (${d.hookSequences} of them webhook sequences, ${d.hookCommands} commands)` : ' (no webhook sequence)';
  const cut = d.interrupted ? `; the time bound (${Math.round((d.budget?.timeMs ?? 0) / 1000)} s) ended it` : '';
  return `${d.sequences} sequences, ${d.commands} commands${hooks}${d.seed === null ? '' : `, seed ${d.seed}`}${cut}`;
}
