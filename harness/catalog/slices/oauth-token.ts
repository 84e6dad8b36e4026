/**
 * Slices of the OAuth authorization, Token endpoint, Client credentials, Refresh
 * tokens and API headers areas: for each requirement, the dimensions the spec's
 * text and tables give it (dimensions.ts), with their values.
 */
import type { SliceDeclarations } from './types.js';

export const OAUTH_TOKEN_SLICES: SliceDeclarations = {
  dimensions: [],
  slices: {
    // "client_id and client_secret must be in the body; a Basic Authorization header is ignored (any values, real or bogus, are ignored)": every grant.
    'TOKEN-BASIC-IGNORED': { grant: 'all' },
  },
  noFault: {},
};
