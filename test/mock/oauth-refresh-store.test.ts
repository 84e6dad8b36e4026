/** The refresh-token store keeps a long-running mock bounded: expired records are swept. */
import { describe, expect, it } from 'vitest';
import { Clock } from '../../mock/clock.js';
import type { MockContext } from '../../mock/context.js';
import { FaultSet } from '../../mock/faults.js';
import { REFRESH_LIFETIME_MS, RefreshTokens } from '../../mock/oauth/refresh-tokens.js';

function store(faults: string[] = []): { tokens: RefreshTokens; clock: Clock } {
  const clock = new Clock();
  const ctx = { clock, faults: new FaultSet(faults), world: { users: [], locks: [] } } as unknown as MockContext;
  return { tokens: new RefreshTokens(ctx), clock };
}

describe('refresh-token store', () => {
  it('drops records past their expiry; an expired token is refused as before', () => {
    const { tokens, clock } = store();
    const old = Array.from({ length: 1000 }, () => tokens.issue({ clientId: 'c', userId: 'u' }));
    clock.advance(REFRESH_LIFETIME_MS + 1);
    for (let i = 0; i < 1024; i++) tokens.issue({ clientId: 'c', userId: 'u' });
    expect(tokens.size).toBeLessThan(1100);
    expect(tokens.redeem(old[0]!, 'c')).toMatchObject({ ok: false });
  });

  it('keeps used tokens within their year, so reuse is reported as reuse', () => {
    const { tokens } = store();
    const t = tokens.issue({ clientId: 'c', userId: 'u' });
    expect(tokens.redeem(t, 'c')).toMatchObject({ ok: true });
    for (let i = 0; i < 1024; i++) tokens.issue({ clientId: 'c', userId: 'u' });
    expect(tokens.redeem(t, 'c')).toEqual({ ok: false, reason: 'refresh token already used' });
  });
});
