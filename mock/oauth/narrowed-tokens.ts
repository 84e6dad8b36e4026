/**
 * Under the sequence-only fault refresh-second-client-locks-refused only: the access tokens
 * the refresh grant gave a credential other than the profile's, which GET /users/locks/mine
 * then refuses (kept by digest, per mock instance, forgotten on reset).
 */
import { createHash } from 'node:crypto';
import type { MockContext } from '../context.js';

const narrowed = new WeakMap<MockContext, Set<string>>();

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export function narrowToken(ctx: MockContext, token: string): void {
  let set = narrowed.get(ctx);
  if (!set) {
    const fresh = new Set<string>();
    narrowed.set(ctx, fresh);
    ctx.onReset.push(() => fresh.clear());
    set = fresh;
  }
  set.add(digest(token));
}

export function isNarrowed(ctx: MockContext, token: string): boolean {
  return narrowed.get(ctx)?.has(digest(token)) ?? false;
}
