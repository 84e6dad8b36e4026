/**
 * Slices of the Webhook registration, Webhook delivery, Webhook signature and
 * Event payloads areas: for each requirement, the dimensions the spec's text and
 * tables give it (event row, enumerated value, actor, …), with their values.
 * Area-specific dimensions are declared here, in `dimensions`.
 */
import type { SliceDeclarations } from './types.js';

export const WEBHOOKS_EVENTS_SLICES: SliceDeclarations = {
  dimensions: [],
  slices: {},
  noFault: {},
};
