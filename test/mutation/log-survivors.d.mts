export interface ScopeMutant { id: string; file: string; line: number; mutator: string; replacement: string; original: string }
export declare function mutantsOfScope(files: string[]): Promise<ScopeMutant[]>;
export declare function verdictsOfScope(text: string, scope?: number): Map<string, boolean>;
export declare function mutateOf(pattern: string): { name: string; mutate: true | Array<{ start: { line: number; column: number }; end: { line: number; column: number } }> };
