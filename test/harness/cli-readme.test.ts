/** The README's quick start and CI recipe use only what the command line offers. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../harness/cli.js';
import { CONFORMANCE_HELP } from '../../harness/commands/help.js';
import { ROOT } from '../support/cli.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Every `<command> <options>` the README runs: `npm run X -- …` and `npx lockconf X …`. */
function invocations(): Array<{ command: string; options: string[]; line: string }> {
  const out: Array<{ command: string; options: string[]; line: string }> = [];
  for (const line of README.split('\n')) {
    const m = /(?:npm run ([\w:]+)(?: -- (.*))?|npx lockconf ([\w:]+)(.*))/.exec(line);
    if (!m) continue;
    const command = m[1] ?? m[3]!;
    const rest = (m[2] ?? m[4] ?? '').split('#')[0]!.split('`')[0]!;
    out.push({ command, options: [...rest.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((x) => x[1]!), line });
  }
  return out;
}

describe('README', () => {
  it('every option the README passes to a lockconf command exists', () => {
    const program = buildProgram(() => {});
    const found = invocations().filter((i) => program.commands.some((c) => c.name() === i.command));
    expect(found.length).toBeGreaterThan(3);
    for (const { command, options, line } of found) {
      const cmd = program.commands.find((c) => c.name() === command)!;
      const known = new Set(cmd.options.flatMap((o) => [o.long, o.negate ? o.long : null]).filter(Boolean));
      for (const option of options) expect(known.has(option), `${line.trim()}: ${option}`).toBe(true);
    }
  });

  it('the CI recipe says what an incomplete run does, and shows the opt-in', () => {
    const ci = README.slice(README.indexOf('## CI example'));
    expect(ci).toContain('--allow-incomplete');
    expect(ci).toMatch(/exit 1 when a MUST fails or is not tested, 2 when the run cannot be carried out/);
  });

  it('--help, the README and reports/README.md give the same exit code for every verdict', () => {
    const reportsReadme = readFileSync(join(ROOT, 'reports', 'README.md'), 'utf8');
    const exits = (text: string) => text.replace(/\s+/g, ' ');
    const help = exits(CONFORMANCE_HELP);
    expect(help).toMatch(/ 0 conformant; or partial: everything in scope passed/);
    expect(help).toMatch(/ 1 not conformant: .* incomplete: .* interrupted: .* interfered: /);
    expect(help).toMatch(/ 2 the run could not be carried out/);
    const readme = exits(README);
    expect(readme).toContain('| 0 | `conformant`; or `partial`: everything in scope passed');
    expect(readme).toContain('| 1 | `not-conformant` (a MUST failed), `incomplete` (a MUST not tested), `interrupted`, `interfered` |');
    expect(readme).toContain('| 2 | `error`: the run could not be carried out');
    const reports = exits(reportsReadme);
    expect(reports).toContain('0 conformant or partial (the whole scope passed; also incomplete with `--allow-incomplete`), 1 not conformant, incomplete, interrupted or interfered, 2 the run could not be carried out');
  });
});
