export declare function parseArgs(argv: string[]): { folders: string[]; passthrough: string[]; mutate: string[] };
export declare function foldersOfMutate(patterns: string[]): string[];
