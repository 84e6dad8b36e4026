/** The mock's HS256 signer makes the same tokens as jose's SignJWT, and jose verifies them. */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { signHs256 } from '../../mock/oauth/jwt-sign.js';

async function viaJose(payload: Record<string, unknown>, sub: string, iat: number, exp: number, jti: string, key: Uint8Array): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(sub).setIssuedAt(iat).setExpirationTime(exp).setJti(jti).sign(key);
}

describe('HS256 access tokens', () => {
  it('are byte for byte the compact JWS jose signs for the same header and claims', async () => {
    const key = randomBytes(32);
    const cases = [
      { payload: { client_id: 'client-1f', account: 'user', gid: 'Zk3_-a' }, sub: '0b7e6c1e-2f4a-4d7b-9c2e-5a1d3f6b8e90' },
      { payload: { client_id: 'client-é "quoted" \u2028', account: 'application' }, sub: 'application:client-é "quoted" \u2028' },
    ];
    for (const { payload, sub } of cases) {
      const jti = randomUUID();
      const ours = signHs256({ ...payload, sub, iat: 1_700_000_000, exp: 1_710_368_000, jti }, key);
      expect(ours).toBe(await viaJose(payload, sub, 1_700_000_000, 1_710_368_000, jti, key));
    }
  });

  it('are accepted by jwtVerify with the key, refused with another', async () => {
    const key = randomBytes(32);
    const now = Math.floor(Date.now() / 1000);
    const token = signHs256({ client_id: 'c', account: 'application', sub: 'application:c', iat: now, exp: now + 60, jti: randomUUID() }, key);
    const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat'] });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ client_id: 'c', account: 'application', sub: 'application:c', iat: now, exp: now + 60 });
    await expect(jwtVerify(token, randomBytes(32), { algorithms: ['HS256'] })).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  it('refuses a time claim that is not a finite number, as jose does', () => {
    expect(() => signHs256({ iat: Number.NaN, exp: 1 }, randomBytes(32))).toThrow(TypeError);
    expect(() => signHs256({ iat: 1, exp: Number.POSITIVE_INFINITY }, randomBytes(32))).toThrow(TypeError);
  });
});
