/**
 * A step of exploration: what a sequence holds on the real side (the port, the secrets behind
 * the model's ids, the story so far), and how one step runs: its exchanges go into the story,
 * an answer outside the model's set ends the sequence as the rule it breaks.
 */
import type { Exchange } from '../../harness/contracts.js';
import type { Observation, Violation } from '../../harness/model/index.js';
import type { ExplorePort } from './port.js';

export interface StoryStep {
  what: string;
  exchanges: Exchange[];
  /** What reached the registrations' urls (webhook steps). */
  notes?: string[];
}

/** The real side of a run: the port, the secrets behind the model's ids, and the story so far. */
export interface Real {
  port: ExplorePort;
  secrets: Map<number, string>;
  steps: StoryStep[];
  /** Commands run so far, over every sequence. */
  counter: { commands: number };
  /** Per registration of the model (its id): its inbox, and the header and token it named. */
  hooks?: Map<number, { inbox: import('../../harness/contracts.js').Inbox; header?: { name: string; token: string } }>;
}

/** An answer outside the set the model allows: reported as the rule it breaks. */
export class ModelViolation extends Error {
  constructor(readonly violation: Violation, readonly answered: Observation) {
    super(`${violation.rule.id}: ${violation.what}: expected ${violation.expected.join(' or ')}; observed ${answered}`);
    this.name = 'ModelViolation';
  }
}

/** Runs one step: its exchanges go into the story; a violation ends the sequence. */
export async function step(r: Real, what: string, fn: () => Promise<Violation | null>): Promise<void> {
  r.counter.commands++;
  const mark = r.port.exchanges().length;
  const s: StoryStep = { what, exchanges: [] };
  r.steps.push(s);
  try {
    const v = await fn();
    if (v) throw new ModelViolation(v, v.observed);
  } finally {
    s.exchanges = r.port.exchanges().slice(mark);
  }
}
