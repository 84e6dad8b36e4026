/**
 * Authorization grants: every code redemption and every client_credentials
 * issue starts a grant; its refresh tokens and access tokens (those rotated from
 * them included) carry its ID. Revoking a grant ends all of them at once
 * (RFC 7009 §2.1, RFC 6749 §4.1.2, RFC 9700 §4.14.2; docs/mock-security.md says
 * when the mock does it). Revoked grant IDs are kept up to a bound, the oldest
 * forgotten first.
 */
import { randomBase64url } from './random-tokens.js';

export const MAX_REVOKED_GRANTS = 100_000;

export type GrantRevocationCause = 'code-replayed' | 'refresh-replayed' | 'refresh-revoked';

export class Grants {
  readonly #revoked = new Map<string, GrantRevocationCause>();

  /** A new grant ID (random, never shown to anyone but inside the mock's own tokens). */
  start(): string {
    return randomBase64url(12);
  }

  revoke(grantId: string, cause: GrantRevocationCause): void {
    if (this.#revoked.has(grantId)) return;
    this.#revoked.set(grantId, cause);
    if (this.#revoked.size > MAX_REVOKED_GRANTS) this.#revoked.delete(this.#revoked.keys().next().value!);
  }

  isRevoked(grantId: string | undefined): boolean {
    return grantId !== undefined && this.#revoked.has(grantId);
  }

  clear(): void {
    this.#revoked.clear();
  }

  get revokedCount(): number {
    return this.#revoked.size;
  }
}
