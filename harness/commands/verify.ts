/** `lockconf verify DIR [--key PUBLIC-KEY-PEM]`: checks a certified package offline (harness/certify/verify.ts). */
import { verifyPackage } from '../certify/verify.js';
import { ROOT } from './common.js';

export async function verifyCommand(dir: string, opts: { key?: string }): Promise<number> {
  const report = await verifyPackage(dir, { root: ROOT, ...(opts.key ? { keyFile: opts.key } : {}) });
  process.stdout.write(`${report.lines.join('\n')}\n`); // what matched, what did not, the conclusion last
  return report.code;
}
