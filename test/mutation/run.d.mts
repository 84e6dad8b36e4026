export interface StrykerResults { files: Record<string, unknown>; testFiles?: Record<string, { tests?: Array<{ id: string }> }>; [key: string]: unknown }
export declare function parseArgs(argv: string[]): { folders: string[]; passthrough: string[]; mutate: string[] };
export declare function foldersOfMutate(patterns: string[]): string[];
export declare function runsOf(folder: string, patterns?: string[]): Array<{ only: string; mutate: string[] }>;
export declare function mergeResults(committed: StrykerResults | null, partial: StrykerResults, mutate?: string[]): StrykerResults;
export declare function mutatedBy(file: string, patterns: string[]): boolean;
