/**
 * Freedoms (issue 32): choices the spec leaves open ("not shown", an unstated
 * status, a field a row does not list), each with legal alternatives. The harness's
 * catalog declares them with the spec's words (harness/catalog/freedoms.ts); the mock
 * implements each non-default alternative behind ONE generic switch, analogous to
 * the slice faults: MockOptions `freedoms: ['FREEDOM-ID=alternative', …]`, and one
 * call `ctx.freedoms.chooses('FREEDOM-ID', 'alternative')` at the place the
 * behaviour lives. The mock's default is always the first alternative and needs no
 * switch.
 *
 * The mock stays standalone: the IDs are plain strings shared by convention with the
 * catalog (test/self-verification/freedoms.test.ts checks that they agree).
 */

/** Per freedom: its non-default alternatives the mock implements, and where. */
export const FREEDOM_SWITCHES = {
  'MISSING-PARAMETER-REFUSAL': { 'invalid-request': 'mock/oauth/token-endpoint.ts missingParameter: 400 {"error":"invalid_request"} (RFC 6749 §5.2)' },
  'CC-REFUSAL-ANSWER': { 'forbidden-403': 'mock/oauth/token-endpoint.ts client_credentials: 403 {"error":"unauthorized_client"}' },
  'MASTER-PIN-LOCK': { absent: 'mock/events/payloads.ts masterPinChanged: no Lock object' },
  'USER-OBJECT-FIELDS': { 'user-id-only': 'mock/events/payloads.ts eventUser: UserID (and the row\'s UserType or AccessType) only, on every row but the app operation' },
  'LOCK-NAME-BLANKS': { trimmed: 'mock/events/event-service.ts lock_name_changed: the new name stored without its outer blanks' },
  'WEBHOOK-ENDPOINT-ANSWERS': { 'accepted-202': 'mock/api/webhook-routes.ts answer: 202 with no body on every webhook endpoint' },
  'API-RESPONSE-BODIES': { 'plain-text': 'mock/api/users.ts: GET /users/me and GET /users/locks/mine answer 200 text/plain "ok"' },
  'LIFECYCLE-PAYLOAD': { 'authorization-shape': 'mock/events/payloads.ts lifecycleDeleted: EventType authorization, Event user_account_deleted, UserID, Timestamp' },
} as const satisfies Record<string, Record<string, string>>;

export type FreedomId = keyof typeof FREEDOM_SWITCHES;

/** A freedom choice's parts, or null when `entry` is not written `ID=alternative`. */
export function parseFreedomChoice(entry: string): { freedom: string; alternative: string } | null {
  const m = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)=([a-z0-9][a-z0-9-]*)$/.exec(entry);
  return m ? { freedom: m[1]!, alternative: m[2]! } : null;
}

/** The alternatives chosen in one mock instance (MockOptions `freedoms`). */
export class FreedomSet {
  readonly #chosen: ReadonlyMap<string, string>;

  constructor(entries: Iterable<string> = []) {
    const chosen = new Map<string, string>();
    for (const entry of entries) {
      const parsed = parseFreedomChoice(entry);
      if (!parsed) throw new Error(`unknown freedom: a freedom is chosen as ID=alternative; got ${entry}`);
      const alternatives = (FREEDOM_SWITCHES as Record<string, Record<string, string>>)[parsed.freedom];
      if (!alternatives) throw new Error(`unknown freedom: ${parsed.freedom} (known: ${Object.keys(FREEDOM_SWITCHES).join(', ')})`);
      if (!(parsed.alternative in alternatives)) throw new Error(`unknown freedom: ${parsed.freedom} has no alternative ${parsed.alternative} in the mock (known: ${Object.keys(alternatives).join(', ')})`);
      if (chosen.has(parsed.freedom) && chosen.get(parsed.freedom) !== parsed.alternative) throw new Error(`freedom ${parsed.freedom} chosen twice (${chosen.get(parsed.freedom)}, ${parsed.alternative})`);
      chosen.set(parsed.freedom, parsed.alternative);
    }
    this.#chosen = chosen;
  }

  /** Is this alternative of the freedom chosen here? The one call at the place the behaviour lives. */
  chooses<F extends FreedomId>(freedom: F, alternative: keyof (typeof FREEDOM_SWITCHES)[F] & string): boolean {
    return this.#chosen.get(freedom) === alternative;
  }

  /** Every choice, written ID=alternative. */
  list(): string[] {
    return [...this.#chosen].map(([f, a]) => `${f}=${a}`);
  }
}
