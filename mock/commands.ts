/**
 * How a page or message names a lockconf command: `npm run <name> -- <args>` in the
 * repository (its package.json has the scripts), `npx lockconf <name> <args>` where
 * lockconf is an installed package (the scripts do not exist there).
 */
export type CommandStyle = 'npm' | 'npx';

export function commandLine(style: CommandStyle, name: string, args = ''): string {
  if (style === 'npx') return `npx lockconf ${name}${args ? ` ${args}` : ''}`;
  return `npm run ${name}${args ? ` -- ${args}` : ''}`;
}

/** Where the commands run from, as a page tells it. */
export function workDirName(style: CommandStyle): string {
  return style === 'npx' ? 'the directory you ran npx lockconf mock in' : 'the repository root';
}
