/**
 * The requirement catalog: every requirement lockconf checks, as data, one file
 * per kind of target (service.ts: the Lock Access Service itself). This module
 * joins them and answers look-ups by ID.
 *
 * IDs are stable. A spec sentence maps to one ID; a test may check several IDs;
 * an ID may need several tests. Things the spec marks "not shown" are INFO:
 * observed and reported, never failed.
 */

import type { Area, Requirement } from './requirement.js';
import { SERVICE_AREAS, SERVICE_REQUIREMENTS } from './service.js';
import { RECEIVER_AREAS, RECEIVER_REQUIREMENTS } from './receiver.js';
import { CLIENT_AREAS, CLIENT_REQUIREMENTS } from './client.js';

export type { Area, Capability, Level, Requirement } from './requirement.js';
export { FREEDOMS, freedom, freedomsOf, type Freedom, type FreedomAlternative } from './freedoms.js';

/** Every requirement lockconf knows, in report order. */
export const CATALOG: readonly Requirement[] = [...SERVICE_REQUIREMENTS, ...RECEIVER_REQUIREMENTS, ...CLIENT_REQUIREMENTS];

/** The requirements a run against the service judges (the verdict of a service run counts these only). */
export const SERVICE_CATALOG: readonly Requirement[] = SERVICE_REQUIREMENTS;
/** The requirements a run against an application's webhook receiver judges (`conformance --receiver`). */
export const RECEIVER_CATALOG: readonly Requirement[] = RECEIVER_REQUIREMENTS;
/** What a run grading an application's OAuth client judges (`conformance --client`). */
export const CLIENT_CATALOG: readonly Requirement[] = CLIENT_REQUIREMENTS;

const BY_ID = new Map(CATALOG.map((req) => [req.id, req]));

/** The requirement with this ID; throws on an unknown ID so a typo fails loudly. */
export function requirement(id: string): Requirement {
  const req = BY_ID.get(id);
  if (!req) throw new Error(`unknown requirement ID: ${id}`);
  return req;
}

export function isRequirementId(id: string): boolean {
  return BY_ID.has(id);
}

/** The areas in report order. */
export const AREAS: readonly Area[] = [...SERVICE_AREAS, ...RECEIVER_AREAS, ...CLIENT_AREAS];

