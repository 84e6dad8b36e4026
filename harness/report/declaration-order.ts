/**
 * The progress lines of a run in the order the tests are declared, whatever order
 * they finish in: tests that run side by side (harness/run/gate.ts) may end in any
 * order, and the terminal should read like the suites. A finished test's line waits
 * until every test declared before it in its file has been shown; the end of a file
 * shows whatever is left. Pure: tested in test/harness/report/declaration-order.test.ts.
 */
export class DeclarationOrder {
  readonly #waiting = new Map<string, () => void>();
  readonly #shown = new Set<string>();

  /** Test `id` finished; `declared` lists its file's tests in declaration order. */
  finished(id: string, declared: readonly string[], show: () => void): void {
    this.#waiting.set(id, show);
    for (const next of declared) {
      if (this.#shown.has(next)) continue;
      const pending = this.#waiting.get(next);
      if (!pending) return; // a test declared earlier is still running
      this.#show(next, pending);
    }
  }

  /** The file ended: every line still waiting (a test before it never reported), in declaration order. */
  flush(declared: readonly string[]): void {
    for (const id of declared) {
      const pending = this.#waiting.get(id);
      if (pending) this.#show(id, pending);
    }
  }

  #show(id: string, show: () => void): void {
    this.#waiting.delete(id);
    this.#shown.add(id);
    show();
  }
}
