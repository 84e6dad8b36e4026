/**
 * manifest.sig: a compact JWS (EdDSA, Ed25519, jose) whose payload is the exact
 * bytes of manifest.json. Its protected header names the key (kid: the RFC 7638
 * thumbprint) and carries the public key itself (jwk), so a reader without the
 * published key still learns who signed; only a key the reader trusts (--key)
 * makes the signature mean something (harness/certify/verify.ts).
 */
import type { KeyObject } from 'node:crypto';
import { CompactSign, EmbeddedJWK, compactVerify, decodeProtectedHeader, type JWK } from 'jose';
import { fingerprintOf, type SigningKey } from './keys.js';

export const JWS_TYPE = 'lockconf-manifest+jws';

export async function signManifest(manifestBytes: Uint8Array, key: SigningKey): Promise<string> {
  return new CompactSign(manifestBytes)
    .setProtectedHeader({ alg: 'EdDSA', typ: JWS_TYPE, kid: key.fingerprint, jwk: key.publicJwk })
    .sign(key.privateKey);
}

export type SignatureCheck =
  | { ok: true; fingerprint: string; trusted: boolean }
  | { ok: false; problem: string; fingerprint: string | null };

/**
 * Checks `jws` over `manifestBytes`: with `trusted` (the reader's --key), against it;
 * without, against the key in its own header (valid, but nobody vouches for the signer).
 */
export async function checkSignature(jws: string, manifestBytes: Uint8Array, trusted: { key: KeyObject; fingerprint: string } | null): Promise<SignatureCheck> {
  let header: { alg?: unknown; kid?: unknown; jwk?: JWK };
  try {
    header = decodeProtectedHeader(jws.trim()) as typeof header;
  } catch {
    return { ok: false, problem: 'manifest.sig is not a compact JWS', fingerprint: null };
  }
  if (header.alg !== 'EdDSA') return { ok: false, problem: `manifest.sig uses alg ${String(header.alg)}, not EdDSA`, fingerprint: null };
  const kid = typeof header.kid === 'string' ? header.kid : null;
  if (header.jwk) {
    const embedded = await fingerprintOf(header.jwk).catch(() => null);
    if (embedded !== kid) return { ok: false, problem: `manifest.sig's header names key ${kid ?? '(none)'} but carries key ${embedded ?? '(unreadable)'}`, fingerprint: kid };
  }
  if (trusted && kid !== trusted.fingerprint) {
    return { ok: false, problem: `manifest.sig was signed by key ${kid ?? '(unnamed)'}, not by the given key ${trusted.fingerprint}`, fingerprint: kid };
  }
  try {
    const { payload } = trusted ? await compactVerify(jws.trim(), trusted.key, { algorithms: ['EdDSA'] }) : await compactVerify(jws.trim(), EmbeddedJWK, { algorithms: ['EdDSA'] });
    if (Buffer.compare(Buffer.from(payload), Buffer.from(manifestBytes)) !== 0) {
      return { ok: false, problem: 'manifest.sig signs another manifest than manifest.json (manifest.json was changed)', fingerprint: kid };
    }
  } catch {
    return { ok: false, problem: `manifest.sig's signature does not verify${trusted ? ` with the given key ${trusted.fingerprint}` : ''}`, fingerprint: kid };
  }
  if (!kid) return { ok: false, problem: 'manifest.sig names no key (kid)', fingerprint: null };
  return { ok: true, fingerprint: kid, trusted: !!trusted };
}
