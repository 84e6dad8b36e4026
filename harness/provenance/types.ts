/**
 * The `provenance` field of conformance.json (/work/wt/PROVENANCE.md, docs/certification.md):
 * what a reader who did not run lockconf needs to know about the run. Additive:
 * absent in files written before it, so readers must cope without it. Never a
 * secret: secret settings are reported as "(set)".
 */

export type SuiteSource =
  | { kind: 'git'; commit: string; branch: string | null; clean: boolean | null }
  | {
      kind: 'package';
      integrity: string | null;
      path: string;
      /** Addition: where `integrity` came from (a package lock's entry, or a SHA-256 over the package's files). */
      integritySource?: 'package-lock' | 'files-sha256' | null;
    };

export interface Setting {
  /** An environment variable (LOCKCONF_DELIVERY_WAIT_MS) or an option (--seed). */
  name: string;
  /** As given; "(set)" for a secret; null when not given. */
  value: string | null;
  /** The value used when not given; null when there is none. */
  default: string | null;
  /** Given, and different from the default. */
  changed: boolean;
  source: 'env' | 'option' | 'default';
}

export type RunMode = 'service' | 'receiver' | 'client';

export interface Provenance {
  schema: 1;
  suite: { name: 'lockconf'; version: string; source: SuiteSource };
  spec: { path: 'docs/spec/lock-access-service.md'; sha256: string };
  /** SHA-256 over the canonical JSON of the whole requirement catalog (harness/provenance/hashes.ts catalogDigest). */
  catalog: { sha256: string; requirements: number };
  runtime: { node: string; platform: string; arch: string; os: string };
  command: { argv: string[]; cwd: string };
  mode: RunMode;
  settings: Setting[];
  expectations: { file: string; sha256: string; content: string } | null;
  seed: number | null;
  scope: { only: string[] | null; partial: boolean; inScope: number | null; total: number | null };
  target: {
    authUrl: string | null;
    baseUrl: string | null;
    receiverUrl: string | null;
    clientId: string | null;
    mock: boolean;
    /** SHA-256 of the canonical JSON of the profile (file and LOCKCONF_<FIELD> variables) with its secrets removed. */
    profileSha256: string | null;
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
}

/** What is known before the run: everything but what only its end can tell. */
export type ProvenanceDraft = Omit<Provenance, 'scope' | 'finishedAt' | 'durationMs'> & {
  scope?: Provenance['scope'];
};
