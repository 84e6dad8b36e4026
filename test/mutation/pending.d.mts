import type { ReportedMutant, TriageEntry } from './triage.mjs';
export type Fate = 'survived' | 'killed' | 'duplicate' | 'waiting';
export declare const FATES: Fate[];
export declare function matchPending<M extends ReportedMutant & { triage?: TriageEntry }>(mutants: M[], pending: TriageEntry[]): { mutants: Array<M & { triage?: TriageEntry & { pending?: true } }>; fates: Array<{ entry: TriageEntry; fate: Fate; mutant?: M }> };
export declare function adoptInto<F extends { survivors?: TriageEntry[]; pending?: TriageEntry[] }>(triageFile: F, fates: Array<{ entry: TriageEntry; fate: Fate }>): F & { survivors: TriageEntry[]; pending: TriageEntry[] };
export declare function closedGap(entry: TriageEntry): boolean;
export declare function countFates(fates: Array<{ fate: Fate }>): Record<Fate, number>;
export declare function checkPending(current: Array<Omit<ReportedMutant, 'status'>>, pending: TriageEntry[]): Array<{ entry: TriageEntry; lines: number[] }>;
