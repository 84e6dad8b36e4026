export declare const KILLING_STATUSES: Set<string>;
export declare function mutantVerdict(text: string | undefined, baseline?: Set<string>): { killed: boolean; reason: string };
export declare function notTestedInScope(result: unknown): string[];
export declare function readText(file: string): string | undefined;
export declare function mutantVerdictOf(file: string, baseline?: Set<string>): { killed: boolean; reason: string };
