/**
 * Which target a run judges, and why, said in one line before anything runs:
 * the embedded mock (no --target and no LOCKCONF_<FIELD> variable), or a
 * profile from a file and/or the environment, naming the variables that were
 * read. Setting one LOCKCONF_<FIELD> variable turns the embedded mock off; that
 * is said too, so a user who exported a secret sees why the run asks for an
 * address.
 */
import type { TargetProfile } from '../contracts.js';
import { PROFILE_ENV } from './profile.js';
import { LockconfError, isLockconfError } from '../run/errors.js';

export interface TargetChoice {
  kind: 'mock' | 'profile';
  file: string | null;
  /** LOCKCONF_<FIELD> variables set (non-empty) in the environment. */
  variables: string[];
  /** The sentence the run prints. */
  description: string;
}

/** The LOCKCONF_<FIELD> variables that are set (empty ones count as unset, as in profile.ts). */
export function profileVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.values(PROFILE_ENV).filter((name) => (env[name] ?? '').trim() !== '');
}

export function chooseTarget(file: string | null, env: NodeJS.ProcessEnv): TargetChoice {
  const variables = profileVariables(env);
  if (!file && variables.length === 0) {
    return {
      kind: 'mock',
      file: null,
      variables,
      description: 'target: the embedded reference mock (no --target and no LOCKCONF_* profile variable set)',
    };
  }
  const from = [file ? `the profile ${file}` : null, variables.length ? `${file ? 'with ' : 'the '}environment variable${variables.length > 1 ? 's' : ''} ${variables.join(', ')}` : null]
    .filter(Boolean)
    .join(' ');
  const note = file ? '' : ' (no --target given; a LOCKCONF_* profile variable turns the embedded mock off)';
  return { kind: 'profile', file, variables, description: `target: ${from}${note}` };
}

/** Where a profile field came from, for a message that names what to fix. */
export function fieldOrigin(field: keyof TargetProfile, choice: Pick<TargetChoice, 'file' | 'variables'>): string {
  const name = PROFILE_ENV[field];
  if (choice.variables.includes(name)) return `${name} (environment variable)`;
  if (choice.file) return `${field} in ${choice.file} (or ${name})`;
  return name;
}

/**
 * A profile error when the profile came from the environment alone: said with
 * the reason the mock is off and the two ways out.
 */
export function explainProfileError(err: unknown, choice: TargetChoice): unknown {
  if (!isLockconfError(err, 'ERR_PROFILE_INVALID') || choice.file || choice.variables.length === 0) return err;
  return new LockconfError(
    'ERR_PROFILE_INVALID',
    `${choice.variables.join(', ')} ${choice.variables.length > 1 ? 'are' : 'is'} set, so the run reads its target from the environment instead of starting the embedded mock, and that profile is incomplete: ${err.message}. `
      + `Give the profile with --target FILE, set the missing LOCKCONF_* variables, or unset ${choice.variables.join(' and ')} to test the embedded mock.`,
    { cause: err },
  );
}
