/**
 * HS256 JWTs signed synchronously with node:crypto's HMAC, byte for byte the
 * compact JWS that jose's SignJWT makes for the same header and claims
 * (base64url of JSON.stringify(header), ".", of JSON.stringify(claims), ".",
 * HMAC-SHA256 of the two). jose's WebCrypto path imports the raw key and runs
 * the HMAC as an asynchronous job on every call, which was the largest single
 * cost of the token endpoint; jose's jwtVerify still checks these tokens
 * (test/mock/jwt-sign.test.ts compares both signers).
 */
import { createHmac } from 'node:crypto';

/** The protected header, encoded once: {"alg":"HS256","typ":"JWT"}. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export interface Hs256Claims {
  /** Seconds since the epoch; finite, as jose's setIssuedAt / setExpirationTime demand. */
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/** A compact HS256 JWS over the claims in their insertion order. */
export function signHs256(claims: Hs256Claims, key: Uint8Array): string {
  for (const name of ['iat', 'exp'] as const) {
    const value = claims[name];
    if (!Number.isFinite(value)) throw new TypeError(`"${name}" claim must be a finite number`);
  }
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}
