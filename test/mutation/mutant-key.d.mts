export declare function keyOf(m: { file: string; mutator: string; replacement?: string; original: string }): string;
