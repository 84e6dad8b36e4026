export interface ReportedMutant { file: string; line: number; mutator: string; replacement: string; original: string; status: string; reason?: string }
export interface TriageEntry { file: string; line?: number; mutator: string; replacement: string; original: string; class: 'equivalent' | 'legal' | 'gap'; why: string; spec?: string; test?: string }
export declare const TRIAGE_FILE: string;
export declare const TRIAGE_FILES: string[];
export declare function triageFileOf(folder: string): string;
export declare const CLASSES: string[];
export declare function originalText(source: string, location: { start: { line: number; column: number }; end: { line: number; column: number } }): string;
export declare function mutantsOf(report: unknown): ReportedMutant[];
export declare function scoreOf(mutants: ReportedMutant[]): { mutants: number; ignored: number; killed: number; timeout: number; survived: number; noCoverage: number; errors: number; score: number | null };
export declare function matchTriage(mutants: ReportedMutant[], entries: TriageEntry[]): { survivors: Array<ReportedMutant & { triage?: TriageEntry }>; stale: TriageEntry[] };
export declare function readTriage(files?: string | string[]): TriageEntry[];
export declare function printSummary(opts?: { folders?: string[]; list?: boolean; stubs?: boolean; write?: (s: string) => void; fileOf?: (folder: string) => string; triageFiles?: string[] }): number;
export declare function readClosed(files?: string | string[]): TriageEntry[];
export declare function readPending(files?: string | string[]): Array<TriageEntry & { source: string }>;
export declare function triageOf(mutants: ReportedMutant[], entries: TriageEntry[], pending?: TriageEntry[]): { survivors: Array<ReportedMutant & { triage?: TriageEntry & { pending?: true } }>; stale: TriageEntry[]; fates: Array<{ entry: TriageEntry; fate: 'survived' | 'killed' | 'duplicate' | 'waiting' }> };
export declare function adoptPending(opts?: { files?: string[]; write?: (s: string) => void; fileOf?: (folder: string) => string }): void;
export declare function closeStale(opts?: { files?: string[]; write?: (s: string) => void; fileOf?: (folder: string) => string }): void;
export declare function outdatedFiles(report: unknown): string[];
export interface HangEntry { file: string; line?: number; mutator: string; replacement: string; original: string; why: string }
export declare function readHangs(files?: string | string[]): HangEntry[];
export declare function matchHangs(mutants: ReportedMutant[], hangs: HangEntry[]): { timeouts: Array<ReportedMutant & { hang?: HangEntry }>; stale: HangEntry[] };
