/**
 * What the client run's global setup hands the test workers: the judgement of
 * every CLIENT- requirement (judge.ts), next to the `lockconf` setup every
 * conformance run provides. Global setup provides it; conformance.ts injects it.
 */
import type { ClientJudgement } from './judge.js';

export interface ClientRun {
  judgements: ClientJudgement[];
  /** Requests recorded for the client (how much the judgement rests on). */
  recorded: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    lockconfClient: ClientRun;
  }
}

export {};
