/**
 * The Ed25519 keys of certification (docs/certification.md): the signing key
 * from the PEM file named by LOCKCONF_SIGNING_KEY (never argv), a public key
 * from a PEM file (verify --key), and a key's fingerprint: its RFC 7638 JWK
 * thumbprint (SHA-256, base64url). Every failure is one message that names the
 * file, never the key's content.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';

export const SIGNING_KEY_ENV = 'LOCKCONF_SIGNING_KEY';

/** Certification cannot go on (exit 2); the message never holds a key. */
export class CertifyError extends Error {}

export interface SigningKey {
  privateKey: KeyObject;
  /** The public half as a JWK (kty, crv, x): embedded in the signature's header. */
  publicJwk: JWK;
  fingerprint: string;
}

export async function fingerprintOf(publicJwk: JWK): Promise<string> {
  return calculateJwkThumbprint({ kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x }, 'sha256');
}

async function readPem(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new CertifyError(`${what} ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export async function publicJwkOf(key: KeyObject): Promise<JWK> {
  const jwk = await exportJWK(key.type === 'private' ? createPublicKey(key) : key);
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
}

/** The signing key named by LOCKCONF_SIGNING_KEY in `env`. */
export async function loadSigningKey(env: NodeJS.ProcessEnv = process.env): Promise<SigningKey> {
  const file = env[SIGNING_KEY_ENV];
  if (!file) throw new CertifyError(`--certify needs a signing key: set ${SIGNING_KEY_ENV} to the path of its PEM file (lockconf keygen --out DIR makes one)`);
  const pem = await readPem(file, `${SIGNING_KEY_ENV}: the signing key file`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new CertifyError(`${SIGNING_KEY_ENV}: ${file} holds no private key in PEM (PKCS8) form`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new CertifyError(`${SIGNING_KEY_ENV}: ${file} holds a${privateKey.asymmetricKeyType ? `n ${privateKey.asymmetricKeyType}` : ''} key, not an Ed25519 private key (lockconf keygen --out DIR makes one)`);
  }
  const publicJwk = await publicJwkOf(privateKey);
  return { privateKey, publicJwk, fingerprint: await fingerprintOf(publicJwk) };
}

/** A public key (SPKI PEM) to check a signature with: verify --key FILE. */
export async function loadPublicKey(file: string): Promise<{ key: KeyObject; jwk: JWK; fingerprint: string }> {
  const pem = await readPem(file, '--key: the public key file');
  // createPublicKey derives the public half of a private key: a reader given the signer's secret must be told, not served.
  if (/-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY-----/.test(pem)) {
    throw new CertifyError(`--key ${file} holds a private key: verify takes the signer's public key (signing-key.pub.pem); keep the private one secret`);
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new CertifyError(`--key ${file} holds no public key in PEM form (the signer's signing-key.pub.pem)`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new CertifyError(`--key ${file} is not an Ed25519 public key`);
  const jwk = await publicJwkOf(key);
  return { key, jwk, fingerprint: await fingerprintOf(jwk) };
}
