/**
 * The mock folders `npm run mutation` mutates, each with the requirement areas its
 * code serves (the `--only` scope of every conformance run against one of its
 * mutants: a mutant costs the seconds of its areas, not of the whole suite).
 * A folder's code can break a rule of another area only through these: the token
 * service (oauth) decides what the API accepts; the API (api) is the way into every
 * area but OAuth's; deliveries (webhooks) and payloads (events) reach the suite only
 * as webhook deliveries.
 */
export const FOLDERS = {
  oauth: { mutate: 'mock/oauth/**/*.ts', only: 'OAUTH-* TOKEN-* REFRESH-* HEADERS-*' },
  api: { mutate: 'mock/api/**/*.ts', only: 'TOKEN-* REFRESH-* HEADERS-* WEBHOOK-* DELIVERY-* SIGNATURE-* EVENT-*' },
  webhooks: { mutate: 'mock/webhooks/**/*.ts', only: 'WEBHOOK-* DELIVERY-* SIGNATURE-* EVENT-*' },
  events: { mutate: 'mock/events/**/*.ts', only: 'EVENT-* WEBHOOK-* DELIVERY-*' },
};

export const FOLDER_NAMES = Object.keys(FOLDERS);

/** Where a folder's Stryker results live: the committed incremental file (also the report the triage reads). */
export const incrementalFileOf = (folder) => `test/mutation/incremental/${folder}.json`;
