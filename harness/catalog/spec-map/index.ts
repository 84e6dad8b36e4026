/** The traceability matrix: every statement of the spec, by anchor, and how it is covered. */
import { OAUTH_SPEC_MAP } from './oauth.js';
import { WEBHOOKS_SPEC_MAP } from './webhooks.js';
import type { SpecMapPart } from './types.js';

export type { SpecMapPart, StatementCoverage } from './types.js';

export const SPEC_MAP: SpecMapPart = { ...OAUTH_SPEC_MAP, ...WEBHOOKS_SPEC_MAP };
