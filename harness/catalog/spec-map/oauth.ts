/**
 * Coverage of the spec's OAuth, token, refresh, API-header, error and versioning
 * statements: anchor (spec-statements.ts) → the requirements that test it, or why
 * nothing can.
 */
import type { SpecMapPart } from './types.js';

export const OAUTH_SPEC_MAP: SpecMapPart = {};
