/**
 * What the application sends to the user's browser (its pages, scripts and JSON),
 * scanned for the client secret and the API key as the probes' browser receives it
 * (CLIENT-SECRET-ONLY-IN-FORM, request-kind browser; CLIENT-API-KEY-NOT-TO-BROWSER).
 * A finding names the method and path of the answer, never the query (it may hold a
 * code or a state) and never the value.
 */
export interface ContentScanReport {
  /** Answers of the application read and scanned. */
  responses: number;
  /** Where the client secret appeared: "GET /path". */
  secretAt: string[];
  apiKeyAt: string[];
}

function variants(secret: string): string[] {
  if (!secret) return [];
  // As it is, URL-encoded, form-encoded (a request body shown), in a JSON string, HTML-escaped.
  const html = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams([['s', secret]]).toString().slice(2), JSON.stringify(secret).slice(1, -1), html]);
  return [...forms];
}

export class ContentScan {
  readonly #secret: string[];
  readonly #apiKey: string[];
  readonly #pending = new Set<Promise<void>>();
  readonly report: ContentScanReport = { responses: 0, secretAt: [], apiKeyAt: [] };

  constructor(credentials: { clientSecret: string; apiKey: string }) {
    this.#secret = variants(credentials.clientSecret);
    this.#apiKey = variants(credentials.apiKey);
  }

  /** One answer of the application to the browser. */
  see(method: string, url: string, text: string): void {
    this.report.responses += 1;
    const where = `${method} ${new URL(url).pathname}`;
    const holds = (forms: string[]) => forms.some((f) => text.includes(f));
    if (holds(this.#secret) && !this.report.secretAt.includes(where)) this.report.secretAt.push(where);
    if (holds(this.#apiKey) && !this.report.apiKeyAt.includes(where)) this.report.apiKeyAt.push(where);
  }

  /** An answer read asynchronously (a browser's response event): settled() waits for it. */
  track(reading: Promise<void>): void {
    const p = reading.catch(() => {}).finally(() => this.#pending.delete(p));
    this.#pending.add(p);
  }

  async settled(): Promise<ContentScanReport> {
    while (this.#pending.size) await Promise.all([...this.#pending]);
    return this.report;
  }
}
