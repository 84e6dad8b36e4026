/** The executable model of the spec: its state, its rules, and what each operation may answer. */
export * from './rules.js';
export * from './state.js';
export * from './observe.js';
export * from './predict.js';
export * from './webhooks.js';
