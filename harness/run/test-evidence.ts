/**
 * The evidence of one conformance test, gathered and redacted for the reporter and
 * Allure: its exchanges, the deliveries of the inboxes it opened, the token fragments
 * a suite quoted, and the wrappers that keep track of them (conformance-runner.ts).
 */
import type { TaskMeta } from 'vitest';
import { deepRedact } from './outcome-recorder.js';
import type { EvidenceSink } from '../report/allure-sink.js';
import type { CaptureClientLike, Delivery, Exchange, HttpClientLike, Inbox } from '../contracts.js';
import type { DeliveryEvidence, TestMeta } from './outcome.js';
import type { PendingWork } from './pending-work.js';

/**
 * The start of a JWT cut short (a suite quoting the first characters of a body)
 * is no longer the token the redactor knows; it is hidden all the same.
 */
const JWT_FRAGMENT = /eyJ[A-Za-z0-9_-]{6,}(?:\.[A-Za-z0-9_-]*){0,2}/g;

export function scrubTokenFragments(text: string): string {
  return text.replace(JWT_FRAGMENT, '‹jwt-fragment›');
}

/**
 * allure-vitest keeps its runtime messages (steps of failed matchers, with the
 * assertion's message) in task.meta until the reporter writes them: they pass
 * through the redactor like everything else that leaves the test. A run without
 * Allure results (--no-allure: LOCKCONF_NO_ALLURE=1) has no reader for them: they
 * are dropped (a step per assertion, sent to the reporter and redacted for nothing).
 */
export function scrubAllureMessages(meta: TaskMeta, redact: (text: string) => string, env: NodeJS.ProcessEnv = process.env): void {
  const holder = meta as Record<string, unknown>;
  for (const key of ['allureRuntimeMessages', 'allureGlobalRuntimeMessages']) {
    const messages = holder[key];
    if (!Array.isArray(messages)) continue;
    if (env.LOCKCONF_NO_ALLURE === '1') {
      delete holder[key];
      continue;
    }
    holder[key] = messages.map((m: unknown) => {
      // Attachment bodies are base64 (of JSON this harness redacted before attaching): left as they are.
      const message = m as { type?: unknown; data?: Record<string, unknown> } | null;
      if (message?.type === 'attachment_content' && message.data) {
        return { ...message, data: { ...message.data, name: redact(String(message.data.name ?? '')) } };
      }
      return deepRedact(m, redact);
    });
  }
}

/**
 * The HTTP client a test body sees: its API calls note every access token an answer
 * rotated (a 2xx carrying a different x-access-token), for t.superseded().
 */
export function rotationTracking(inner: HttpClientLike, rotated: Set<string>): HttpClientLike {
  const api: HttpClientLike['api'] = async (method, path, opts) => {
    const res = await inner.api(method, path, opts);
    const presented = opts.accessToken;
    const next = res.headers['x-access-token'];
    if (presented && next && next !== presented && res.status >= 200 && res.status < 300) rotated.add(presented);
    return res;
  };
  // A proxy, not a copy: the client's other methods (and its private fields) stay its own.
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'api') return api;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A CaptureClient that remembers the inboxes this test opened, for the evidence, and
 * lists every wait on them in `pending` (what a test that ran out of time waited for).
 */
export function trackingCapture(inner: CaptureClientLike, inboxes: Inbox[], pending?: PendingWork): CaptureClientLike {
  return {
    async newInbox(opts) {
      const inbox = await inner.newInbox(opts);
      const tracked = pending ? pendingInbox(inbox, pending, opts?.label) : inbox;
      inboxes.push(tracked);
      return tracked;
    },
  };
}

function pendingInbox(inbox: Inbox, pending: PendingWork, label: string | undefined): Inbox {
  const name = `inbox ${label ?? inbox.id}`;
  const waitFor: Inbox['waitFor'] = (n, opts) =>
    pending.track('delivery', `${n} deliver${n === 1 ? 'y' : 'ies'}${opts?.what ? ` (${opts.what})` : ''} to ${name}`, () => inbox.waitFor(n, opts));
  const collectFor: Inbox['collectFor'] = (windowMs) => pending.track('quiet-window', `${windowMs} ms on ${name}`, () => inbox.collectFor(windowMs));
  return new Proxy(inbox, {
    get(target, prop) {
      if (prop === 'waitFor') return waitFor;
      if (prop === 'collectFor') return collectFor;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The exchange a failure most likely concerns: the test's last one, as one line. */
export function lastExchange(http: HttpClientLike): string | null {
  const e = safeExchanges(http).at(-1);
  if (!e) return null;
  const answer = e.response ? `HTTP ${e.response.status}` : (e.error ?? 'no response');
  return `last exchange: ${e.request.method} ${e.request.url} → ${answer}`;
}

export function safeExchanges(http: HttpClientLike): Exchange[] {
  try {
    return http.exchanges();
  } catch {
    return [];
  }
}

export async function collectDeliveries(inboxes: Inbox[]): Promise<DeliveryEvidence[]> {
  const out: DeliveryEvidence[] = [];
  for (const inbox of inboxes) {
    let deliveries: Delivery[];
    try {
      deliveries = await inbox.deliveries();
    } catch {
      continue; // evidence is best effort; the verdict never depends on it
    }
    for (const d of deliveries) {
      out.push({
        inbox: d.inbox,
        method: d.method,
        url: d.url,
        headers: d.headers,
        body: d.bodyText,
        receivedAt: d.receivedAt,
        answeredStatus: d.answeredStatus,
      });
    }
  }
  return out;
}

export async function attachEvidence(meta: TestMeta, sink: EvidenceSink): Promise<void> {
  try {
    for (const [i, e] of meta.exchanges.entries()) {
      const status = e.response ? String(e.response.status) : 'no response';
      await sink.attachJson(`HTTP ${i + 1}: ${e.request.method} ${pathOf(e.request.url)} → ${status}`, e);
    }
    for (const [i, d] of meta.deliveries.entries()) {
      await sink.attachJson(`delivery ${i + 1}: ${d.method} ${d.url} (answered ${d.answeredStatus})`, d);
    }
    for (const o of meta.outcomes) if (o.status === 'warned') await sink.flag(`warned: ${o.id}`);
    if (meta.observations.length > 0) await sink.attachJson('observations', meta.observations);
    await sink.attachJson('outcomes', meta.outcomes);
  } catch {
    // Attachments are a convenience of the drill-down; never let them change a verdict.
  }
}

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname;
  } catch {
    return url;
  }
}

export function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
