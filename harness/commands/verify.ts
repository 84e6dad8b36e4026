/** `lockconf verify DIR [--key PUBLIC-KEY-PEM]`: checks a certified package offline (harness/certify/verify.ts). */
import { verifyPackage } from '../certify/verify.js';
import { ROOT } from './common.js';
import { userPath } from './user-paths.js';

export async function verifyCommand(dir: string, opts: { key?: string }): Promise<number> {
  const report = await verifyPackage(userPath(dir), { root: ROOT, ...(opts.key ? { keyFile: userPath(opts.key) } : {}) });
  process.stdout.write(`${report.lines.join('\n')}\n`); // what matched, what did not, the conclusion last
  return report.code;
}
