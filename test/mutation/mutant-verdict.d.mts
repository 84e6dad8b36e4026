export declare const KILLING_STATUSES: Set<string>;
export declare function mutantVerdict(text: string | undefined): { killed: boolean; reason: string };
export declare function mutantVerdictOf(file: string): { killed: boolean; reason: string };
