/**
 * What the deliveries page tells a developer whose receiver refuses or never
 * answers: the likely causes, each with what to check, in words (never a library's
 * error code). A 401 or 403 from a receiver almost always means it could not
 * verify the delivery: the mock's clock moved away from real time (t is the
 * mock's clock, in ms), the receiver keyed the HMAC with something else than the
 * API key, or it checked the wrong header token.
 */
import type { MockContext } from '../context.js';
import type { DeliveryRecord } from '../webhooks/delivery-log.js';
import { html, type SafeHtml } from './layout.js';

/** The recommended tolerance (spec: Events, Signature 4). */
const TOLERANCE_MS = 5 * 60_000;

/** "1 d 2 h", "3 min", "42 s". */
export function duration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h${min % 60 ? ` ${min % 60} min` : ''}`;
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

/** A receiver's error code, as a person reads it (the code stays in /deliveries.json). */
export function noAnswerWords(code: string | null, timeoutMs: number): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'nothing listens at that address and port (connection refused): is the receiver running, on that port?';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the receiver closed the connection before answering';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name of the URL could not be resolved';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'TimeoutError':
    case 'AbortError':
      return `the receiver accepted the connection but sent no answer within ${duration(timeoutMs)} (does it end every request, also after an error?)`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `the receiver sent its status, then never finished the answer within ${duration(timeoutMs)}`;
    case null:
      return 'no answer';
    default:
      return code.startsWith('ERR_TLS') || code.includes('CERT') ? 'the TLS connection to the receiver failed (its certificate)' : `no answer (${code.startsWith('UND_ERR') ? 'the connection failed' : code})`;
  }
}

/** The hint shown above the table when a receiver answered 401 or 403; null when none did. */
export function refusalHint(records: readonly DeliveryRecord[], ctx: Pick<MockContext, 'clock' | 'options'> & { control?: boolean }): SafeHtml | null {
  const refused = records.filter((r) => r.status === 401 || r.status === 403);
  if (refused.length === 0) return null;
  const statuses = [...new Set(refused.map((r) => r.status))].join(' or ');
  const ahead = ctx.clock.offsetMs;
  const reset = `curl -sS "$MOCK/_control/clock" -H "x-control-token: $CONTROL_TOKEN" -H 'content-type: application/json' -d '{"reset":true}'`;
  const clock = ahead > TOLERANCE_MS
    ? html`<li><strong>The clock.</strong> The mock's clock runs <strong>${duration(ahead)} ahead</strong> of real time (it was moved with <code>/_control/clock</code>), and every X-Signature's <code>t</code> is the mock's clock: a receiver with the recommended 5-minute tolerance refuses each delivery. Put the clock back (the start page's curl tour defines $MOCK and $CONTROL_TOKEN):<pre>${reset}</pre></li>`
    : html`<li><strong>The clock.</strong> <code>t</code> in X-Signature is the mock's clock in <strong>milliseconds</strong> since the epoch (a receiver that reads seconds sees a time far in the future). The mock's clock is ${ahead > 0 ? `${duration(ahead)} ahead of` : 'at'} real time now; a delivery sent while it was moved a day ahead stays refused.</li>`;
  return html`<div class="error" data-testid="refusal-hint"><p><strong>Your receiver answered ${statuses} to ${refused.length} ${refused.length === 1 ? 'delivery' : 'deliveries'}.</strong>
A receiver refuses a delivery it cannot verify. Check, in this order:</p>
<ul>
${clock}
<li><strong>The key.</strong> The signature is HMAC-SHA256 keyed with the <strong>API key</strong> (<code>apiKey</code> in .lockconf/mock-target.json), over <code>t</code>, a dot, and the body exactly as received (before any JSON parsing); <code>v</code> is its hex.</li>
<li><strong>The tolerance.</strong> The recommended tolerance is 5 minutes either side; a receiver with a much smaller one refuses deliveries the mock's clock stamped a moment earlier.</li>
<li><strong>The header token.</strong> Each delivery carries the header and token the registration named (shown under Headers); the receiver must expect that one.</li>
</ul></div>`;
}
