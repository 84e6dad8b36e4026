/**
 * `lockconf keygen [--out DIR]`: a signing key pair for --certify (harness/certify/keygen.ts),
 * by default in ~/.lockconf/keys, outside any clone (harness/certify/key-folder.ts).
 */
import { CertifyError } from '../certify/keys.js';
import { generateSigningKeys } from '../certify/keygen.js';
import { defaultKeyFolder } from '../certify/key-folder.js';
import { EXIT } from './common.js';
import { userPath } from './user-paths.js';

export async function keygenCommand(opts: { out?: string }): Promise<number> {
  try {
    const keys = await generateSigningKeys(opts.out ? userPath(opts.out) : defaultKeyFolder());
    process.stdout.write([
      `private key: ${keys.privateFile} (mode 0600; keep it secret, never commit it)`,
      `public key:  ${keys.publicFile} (publish it: readers check packages with it)`,
      `fingerprint: ${keys.fingerprint}`,
      `certify with: LOCKCONF_SIGNING_KEY=${keys.privateFile} lockconf conformance --certify …`,
    ].join('\n') + '\n');
    return EXIT.OK;
  } catch (err) {
    if (!(err instanceof CertifyError)) throw err;
    process.stderr.write(`lockconf: ${err.message}\n`);
    return EXIT.NOT_CARRIED_OUT;
  }
}
