/** `lockconf keygen --out DIR`: a signing key pair for --certify (harness/certify/keygen.ts). */
import { CertifyError } from '../certify/keys.js';
import { generateSigningKeys } from '../certify/keygen.js';
import { EXIT } from './common.js';

export async function keygenCommand(opts: { out?: string }): Promise<number> {
  if (!opts.out) {
    process.stderr.write('lockconf: keygen needs --out DIR: the folder for signing-key.pem and signing-key.pub.pem\n');
    return EXIT.NOT_CARRIED_OUT;
  }
  try {
    const keys = await generateSigningKeys(opts.out);
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
