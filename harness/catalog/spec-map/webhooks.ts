/**
 * Coverage of the spec's webhook statements (registration, payload fields, user
 * object, device values, delivery, signature, groups, lock and user events,
 * limits): anchor (spec-statements.ts) → the requirements that test it, or why
 * nothing can.
 */
import type { SpecMapPart } from './types.js';

export const WEBHOOKS_SPEC_MAP: SpecMapPart = {};
