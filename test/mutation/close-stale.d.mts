import type { ReportedMutant, TriageEntry } from './triage.mjs';
export type StaleFate = 'closed' | 'dropped' | 'kept';
export declare function killersOf(reason?: string): string[];
export declare function killedByText(killers: string[]): string;
export declare function staleFates(mutants: ReportedMutant[], stale: TriageEntry[]): Array<{ entry: TriageEntry; fate: StaleFate; mutant?: ReportedMutant }>;
export declare function settleInto<F extends { survivors?: TriageEntry[]; closed?: TriageEntry[] }>(triageFile: F, fates: Array<{ entry: TriageEntry; fate: StaleFate; mutant?: ReportedMutant }>): F & { survivors: TriageEntry[] };
