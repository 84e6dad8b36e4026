/**
 * GET /deliveries (a page) and GET /deliveries.json: what the mock sent where,
 * newest first, from the delivery log (mock/webhooks/delivery-log.ts). Served
 * only to loopback clients: it names the application's receivers, though never
 * a header value, a body or a URL's query.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.js';
import { DELIVERY_LOG_CAPACITY, type DeliveryRecord } from '../webhooks/delivery-log.js';
import { noAnswerWords, refusalHint } from './delivery-hints.js';
import { html, page, type SafeHtml } from './layout.js';

/** Whether the request comes from this machine. */
export function isLoopback(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function refuseRemote(reply: FastifyReply): FastifyReply {
  return reply.code(403).type('application/json; charset=utf-8').send({ error: 'forbidden', message: 'the deliveries page is served to this machine only' });
}

function outcomePill(record: DeliveryRecord, timeoutMs: number): SafeHtml {
  const cls = record.outcome === 'ok' ? 'ok' : record.outcome === 'refused' ? 'warn' : 'bad';
  if (record.status === null) return html`<span class="pill ${cls}">no answer</span><br><span class="note">${noAnswerWords(record.error, timeoutMs)}</span>`;
  return html`<span class="pill ${cls}">${record.status}</span>`;
}

function row(record: DeliveryRecord, timeoutMs: number): SafeHtml {
  const what = [record.eventType, record.event].filter(Boolean).join(' / ') || '(not JSON)';
  return html`<tr data-testid="delivery">
<td class="nowrap">${record.seq}</td>
<td class="nowrap">${new Date(record.startedAtMs).toISOString().replace('T', ' ').replace('Z', '').slice(5)}</td>
<td>${what}</td>
<td class="nowrap"><code>${record.lockId ?? '—'}</code></td>
<td><code>${record.url}</code></td>
<td>${outcomePill(record, timeoutMs)}</td>
<td class="nowrap">${record.durationMs} ms</td>
<td class="nowrap">${record.bytes} B</td>
<td class="nowrap">${record.signed ? 'X-Signature' : html`<span class="pill bad">unsigned</span>`}${record.customHeader ? html`<br><code>${record.customHeader}</code>` : ''}</td>
</tr>`;
}

export function deliveriesPage(ctx: MockContext): string {
  const log = ctx.deliveryLog;
  const records = log?.records() ?? [];
  const total = log?.total() ?? 0;
  const table = records.length
    ? html`<div class="scroll"><table data-testid="deliveries"><tr><th>#</th><th>Sent (mock clock, UTC)</th><th>Event</th><th>Lock</th><th>Receiver</th><th>Status</th><th>Time</th><th>Size</th><th>Headers</th></tr>${records.map((r) => row(r, ctx.options.deliveryTimeoutMs))}</table></div>`
    : html`<p data-testid="no-deliveries">Nothing sent yet. Register a webhook and make a status check or emit an event (the start page shows how).</p>`;
  const body = html`<h1>Webhook deliveries</h1>
<p>Every POST the mock made to a webhook receiver, newest first: the event, where it went, the receiver's answer and
how long it took. ${total > records.length ? `The last ${records.length} of ${total} are kept.` : `${total} so far; the last ${DELIVERY_LOG_CAPACITY} are kept.`}
The mock never retries and never follows a redirect, so one event is one row (per receiver).</p>
<p class="note">Receivers are shown by origin and path only; header values (the application's token, X-Signature) and bodies are never shown.
<a href="/deliveries">Refresh</a> · <a href="/deliveries.json">JSON</a> · <a href="/">Start page</a></p>
${refusalHint(records, ctx) ?? ''}
${table}`;
  return page('Webhook deliveries', body, { wide: true });
}

export function registerDeliveriesPage(app: FastifyInstance, ctx: MockContext): void {
  app.get('/deliveries', { schema: { hide: true } }, async (request, reply) => {
    if (!isLoopback(request)) return refuseRemote(reply);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(deliveriesPage(ctx));
  });
  app.get('/deliveries.json', { schema: { hide: true } }, async (request, reply) => {
    if (!isLoopback(request)) return refuseRemote(reply);
    const log = ctx.deliveryLog;
    return reply.header('cache-control', 'no-store').send({ total: log?.total() ?? 0, capacity: DELIVERY_LOG_CAPACITY, deliveries: log?.records() ?? [] });
  });
}
