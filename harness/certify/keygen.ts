/**
 * `lockconf keygen --out DIR`: a new Ed25519 key pair for certification:
 * DIR/signing-key.pem (PKCS8, mode 0600: the certifying body keeps it) and
 * DIR/signing-key.pub.pem (SPKI: the body publishes it). Existing files are
 * never overwritten, and a private key is never written into a git work tree
 * that does not ignore it (key-folder.ts).
 */
import { createPrivateKey } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { CertifyError, fingerprintOf, publicJwkOf } from './keys.js';
import { trackedKeyProblem } from './key-folder.js';

export const PRIVATE_KEY_FILE = 'signing-key.pem';
export const PUBLIC_KEY_FILE = 'signing-key.pub.pem';

export interface GeneratedKeys {
  privateFile: string;
  publicFile: string;
  fingerprint: string;
}

export async function generateSigningKeys(outDir: string): Promise<GeneratedKeys> {
  const dir = resolve(outDir);
  const privateFile = join(dir, PRIVATE_KEY_FILE);
  const publicFile = join(dir, PUBLIC_KEY_FILE);
  const taken = [privateFile, publicFile].filter((f) => existsSync(f));
  if (taken.length) throw new CertifyError(`${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''}: keygen never overwrites a key (choose another --out DIR, or move the old key away)`);
  const tracked = trackedKeyProblem(privateFile); // never a private key where git would take it
  if (tracked) throw new CertifyError(tracked);
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const pkcs8 = await exportPKCS8(privateKey);
  const spki = await exportSPKI(publicKey);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // 'wx': created here or not at all (another keygen in between is refused, not overwritten).
  try {
    await writeFile(privateFile, pkcs8, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new CertifyError(`${privateFile} already exists: keygen never overwrites a key`);
    throw new CertifyError(`${privateFile} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  await chmod(privateFile, 0o600); // whatever the umask made of it
  try {
    await writeFile(publicFile, spki, { flag: 'wx', mode: 0o644 });
  } catch (err) {
    throw new CertifyError(`${publicFile} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const fingerprint = await fingerprintOf(await publicJwkOf(createPrivateKey(pkcs8)));
  return { privateFile, publicFile, fingerprint };
}
