/**
 * The reporter's small helpers: the terminal's status symbols, lists from the environment,
 * a failure's headline, the run folder's name and the reports/latest link.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { TestModule } from 'vitest/node';
import type { RequirementStatus } from '../run/outcome.js';

/** vitest's note on a test a cancelled run never started (@vitest/runner markPendingTasksAsSkipped). */
export const ABORTED_NOTE = /aborted by the user/;

export const SYMBOL: Record<RequirementStatus, string> = {
  passed: '✓ passed     ',
  failed: '✗ FAILED     ',
  warned: '! warned     ',
  'not-tested': '- not tested',
  informational: 'i info       ',
  blocked: '⊘ blocked    ',
};

export function envList(value: string | undefined): string[] | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    /* fall through to a comma list */
  }
  return value.split(/[\s,]+/).filter(Boolean);
}

/** The most telling line of a failure reason: the assertion, else the first line that is not the quoted rule. */
export function headline(reason: string): string {
  const lines = reason.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => l.startsWith('assertion:')) ?? lines.find((l) => !l.startsWith('rule ')) ?? lines[0] ?? '';
}

/** reports/runs/<time>-<random>: two runs started in the same millisecond still get folders of their own. */
export function defaultRunDir(root: string, now = new Date()): string {
  const id = now.toISOString().replace(/[:.]/g, '-').replace('T', '_').replace('Z', '');
  return join(root, 'reports', 'runs', `${id}-${randomBytes(2).toString('hex')}`);
}

export function declaredIds(testModule: TestModule): string[] {
  return [...testModule.children.allTests()].map((t) => t.id);
}

/**
 * Point {root}/reports/latest at runDir: a relative link made under a name of its own
 * and renamed over the old one, so two runs that end at once each swap it whole
 * (the last to end wins) and a reader never sees it missing or half made.
 */
export async function pointLatest(root: string, runDir: string): Promise<void> {
  const reports = join(root, 'reports');
  const link = join(reports, 'latest');
  const tmp = join(reports, `.latest-${process.pid}-${randomBytes(4).toString('hex')}`);
  await rm(tmp, { force: true });
  await symlink(relative(reports, runDir), tmp, 'dir');
  await rename(tmp, link);
}
