/** Pooled random tokens: the shape of randomBytes(n).toString('base64url'), never the same bytes twice. */
import { describe, expect, it } from 'vitest';
import { randomBase64url } from '../../mock/oauth/random-tokens.js';

describe('random tokens', () => {
  it('have the length of n bytes in base64url and are all different, across refills of the pool', () => {
    const tokens = Array.from({ length: 1000 }, () => randomBase64url(32));
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(1000);
    expect(randomBase64url(12)).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(randomBase64url(5000)).toHaveLength(6667);
  });
});
