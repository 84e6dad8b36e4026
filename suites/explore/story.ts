/**
 * A shrunk sequence as a numbered story of requests and answers. The exchanges are
 * the HTTP client's log, already redacted (tokens, codes and secrets appear only as
 * labels such as ‹refresh_token#3f2a9c›); control-protocol requests keep only their path.
 */
import type { Exchange } from '../../harness/contracts.js';
import type { StoryStep } from './steps.js';

const BODY_CHARS = 240;

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_CHARS ? `${flat.slice(0, BODY_CHARS)}…` : flat;
}

function lines(e: Exchange): string[] {
  const path = pathOf(e.request.url);
  const control = path.includes('/_control/');
  const body = !control && e.request.body ? ` ${clip(e.request.body)}` : '';
  const sent = `→ ${e.request.method} ${path}${body}`;
  if (!e.response) return [sent, `← no answer${e.error ? ` (${clip(e.error)})` : ''}`];
  const rotated = e.response.headers['x-access-token'] ? ` [x-access-token: ${e.response.headers['x-access-token']}]` : '';
  const answer = control ? '' : ` ${clip(e.response.body)}`;
  return [sent, `← HTTP ${e.response.status}${rotated}${answer}`];
}

/** "1. user #0 (owner) authorizes …" then its requests and answers, indented. */
export function story(steps: readonly StoryStep[]): string[] {
  return steps.flatMap((s, i) => [`${i + 1}. ${s.what}`, ...s.exchanges.flatMap(lines).map((l) => `   ${l}`), ...(s.notes ?? []).map((n) => `   ⇢ ${n}`)]);
}
