/**
 * How a message names a lockconf command where this copy runs: `npm run login -- …`
 * in the repository (its package.json has the scripts), `npx lockconf login …` where
 * lockconf is an installed package (the scripts do not exist there). Every message
 * that tells the user to run a command says it through lockconfCommand().
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, type CommandStyle } from '../../mock/commands.js';
import { ROOT } from './common.js';

/**
 * `npm` in the repository (its package.json has the `conformance` and `login` scripts),
 * `npx` where lockconf is an installed package (under node_modules, or without those scripts).
 */
export function commandStyleOf(root: string): CommandStyle {
  if (/[\\/]node_modules[\\/]/.test(root)) return 'npx';
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    return pkg.scripts?.conformance && pkg.scripts.login ? 'npm' : 'npx';
  } catch {
    return 'npx';
  }
}

let style: CommandStyle | undefined;

/** `npm run <name> -- <args>` or `npx lockconf <name> <args>`, as this copy is run. */
export function lockconfCommand(name: string, args = ''): string {
  style ??= commandStyleOf(ROOT);
  return commandLine(style, name, args);
}
