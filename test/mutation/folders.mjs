/**
 * The mock folders `npm run mutation` mutates, each with the requirement areas its
 * code serves (the `--only` scope of every conformance run against one of its
 * mutants: a mutant costs the seconds of its areas, not of the whole suite).
 * A folder's code can break a rule of another area only through these: the token
 * service (oauth) decides what the API accepts; the API (api) is the way into every
 * area but OAuth's; deliveries (webhooks) and payloads (events) reach the suite only
 * as webhook deliveries.
 *
 * `scopes` narrows the scope further for files that serve fewer areas than their
 * folder (a file in none of them is run with the folder's `only`). Each scope is one
 * Stryker run (`--mutate` its files); its results are merged into the folder's
 * committed incremental file as soon as it ends, so an interrupted folder keeps
 * what it finished.
 */
export const FOLDERS = {
  oauth: {
    mutate: 'mock/oauth/**/*.ts',
    only: 'OAUTH-* TOKEN-* REFRESH-* HEADERS-*',
    scopes: [
      {
        // The authorization endpoint and its sign-in steps: only the OAuth area's
        // requirements walk them (a broken flow leaves OAUTH-CODE-ON-APPROVAL failed).
        files: [
          'mock/oauth/authorization-request.ts',
          'mock/oauth/authorization-endpoint.ts',
          'mock/oauth/pending.ts',
          'mock/oauth/pages.ts',
          'mock/oauth/sign-in-limits.ts',
        ],
        only: 'OAUTH-*',
      },
      {
        // The end of the authorization step and the control hooks (POST /consent, POST /revoke):
        // every user session of the run is signed in through consent, so a code for the wrong
        // user shows only where two users' sessions must differ (a lock only the owner holds,
        // one lock with two users' registrations); a revoke that does nothing only in REFRESH-REVOKED.
        files: ['mock/oauth/consent.ts'],
        only: 'OAUTH-* REFRESH-REVOKED WEBHOOK-LOCK-PER-USER WEBHOOK-LOCK-PER-LOCK',
      },
    ],
  },
  api: {
    mutate: 'mock/api/**/*.ts',
    only: 'TOKEN-* REFRESH-* HEADERS-* WEBHOOK-* DELIVERY-* SIGNATURE-* EVENT-*',
    scopes: [
      // The header and token rules of every API call.
      { files: ['mock/api/authentication.ts'], only: 'HEADERS-*' },
      // The user routes: the header rules are checked on them, the application's own token
      // (TOKEN-CC-TOKEN-WORKS) too, and the registrations find their caller through them.
      { files: ['mock/api/users.ts'], only: 'HEADERS-* TOKEN-CC-* WEBHOOK-*' },
      // The registration routes and their JSON bodies.
      { files: ['mock/api/webhook-routes.ts', 'mock/api/json-body.ts'], only: 'WEBHOOK-*' },
      // The API's error answers: 401s of the header rules, 4xx of registrations.
      { files: ['mock/api/errors.ts'], only: 'HEADERS-* WEBHOOK-*' },
    ],
  },
  webhooks: {
    mutate: 'mock/webhooks/**/*.ts',
    only: 'WEBHOOK-* DELIVERY-* SIGNATURE-* EVENT-*',
    scopes: [
      // X-Signature: only the Signature section's rules read it.
      { files: ['mock/webhooks/signature.ts'], only: 'SIGNATURE-*' },
      // Registrations: their body, the registry (overwrite, delete, per user and lock),
      // the groups and the url's parts; the Webhooks section's rules judge them.
      {
        files: ['mock/webhooks/registration-schema.ts', 'mock/webhooks/registry.ts', 'mock/webhooks/groups.ts', 'mock/webhooks/url-parts.ts'],
        only: 'WEBHOOK-*',
      },
    ],
  },
  events: {
    mutate: 'mock/events/**/*.ts',
    only: 'EVENT-* WEBHOOK-* DELIVERY-*',
    scopes: [
      // The payload builders and their User objects: the Event payloads rules, and "one POST
      // (JSON body)" on every row (a builder that returns nothing sends an empty body, which only
      // DELIVERY-ONE-POST judges: the lifecycle payload itself is not shown).
      { files: ['mock/events/payloads.ts', 'mock/events/people.ts'], only: 'EVENT-* DELIVERY-ONE-POST' },
    ],
  },
};

export const FOLDER_NAMES = Object.keys(FOLDERS);

/** Where a folder's Stryker results live: the committed incremental file (also the report the triage reads). */
export const incrementalFileOf = (folder) => `test/mutation/incremental/${folder}.json`;

/** The requirement scope (`--only`) of the runs against mutants of `file` (a path from the project root). */
export function scopeOf(folder, file) {
  const spec = FOLDERS[folder];
  return spec.scopes.find((s) => s.files.includes(file))?.only ?? spec.only;
}
