/**
 * The SMS codes the mock "sent" (mock/oauth/authorization-endpoint.ts logs each
 * one and shows it on the mock phone): the latest per e-mail address, for the
 * control protocol's sign-in extension (GET /_control/sign-in/sms), so a test
 * suite can type the code as a person reads it off the phone. Bounded: the
 * oldest address goes first.
 */
const MAX_ADDRESSES = 1000;

export class SmsOutbox {
  readonly #latest = new Map<string, string>();

  record(email: string, code: string): void {
    const key = email.toLowerCase();
    this.#latest.delete(key); // re-inserted last: the map's order is the sending order
    this.#latest.set(key, code);
    if (this.#latest.size > MAX_ADDRESSES) this.#latest.delete(this.#latest.keys().next().value!);
  }

  /** The code last sent to that user's phone, or null when none was sent. */
  latest(email: string): string | null {
    return this.#latest.get(email.toLowerCase()) ?? null;
  }

  clear(): void {
    this.#latest.clear();
  }
}
