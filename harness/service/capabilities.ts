/**
 * What the target offers the suites, and for each missing capability the reason
 * a report reader sees ("not tested: needs consent: …"). Pure: global setup
 * gathers the facts (control probe, fixtures, token cache, addresses) and this
 * module draws the conclusions.
 */
import type { Capability } from '../catalog/index.js';
import type { Fixtures } from '../contracts.js';
import { lockconfCommand } from '../commands/command-style.js';

export interface CapabilityFacts {
  /** The control probe: GET /fixtures answered, or why not. */
  control: { ok: true } | { ok: false; reason: string };
  fixtures: Fixtures | null;
  /** A token cache holding a refresh token (npm run login). */
  tokenCache: boolean;
  /** Why the token cache could not be used, when it exists but is unusable. */
  tokenCacheProblem?: string | null;
  /** The target's API address is on this machine, so it can reach a loopback capture server. */
  loopbackTarget: boolean;
  /** capture.publicUrl of the profile, when set. */
  capturePublicUrl: string | null;
  /** The webhook reachability probe (harness/sandbox/reachability.ts) saw no delivery: why. */
  captureUnreachable?: string | null;
}

export interface CapabilityReport {
  capabilities: Capability[];
  missing: Partial<Record<Capability, string>>;
}

/** The control-protocol capabilities: all follow from a working control interface. */
const CONTROL_HOOKS: Capability[] = ['consent', 'clock', 'events', 'revoke', 'client-credentials'];

export function workOutCapabilities(facts: CapabilityFacts): CapabilityReport {
  const capabilities: Capability[] = [];
  const missing: Partial<Record<Capability, string>> = {};
  const decide = (cap: Capability, reasonIfMissing: string | null) => {
    if (reasonIfMissing === null) capabilities.push(cap);
    else missing[cap] = reasonIfMissing;
  };

  const controlWhy = facts.control.ok ? null : facts.control.reason;
  decide('control', controlWhy);
  for (const hook of CONTROL_HOOKS) decide(hook, controlWhy === null ? null : `needs control (${controlWhy})`);

  const consent = controlWhy === null;
  decide('user-token', consent || facts.tokenCache ? null
    : `no control interface and no token cache (run ${lockconfCommand('login')})${facts.tokenCacheProblem ? `: ${facts.tokenCacheProblem}` : ''}`);

  const users = facts.fixtures?.users.length ?? 0;
  decide('second-user',
    !consent ? `needs consent to sign in a second user (${controlWhy})`
      : users < 2 ? `the fixtures list ${users} user(s); a second user is needed`
        : null);

  decide('second-client', (facts.fixtures?.clients?.length ?? 0) > 0 ? null
    : 'the fixtures list no further client credential (the optional "clients" of GET /fixtures)');

  decide('capture',
    !facts.loopbackTarget && !facts.capturePublicUrl
      ? 'the target is not on this machine and capture.publicUrl is not set: the target cannot reach the capture server (set capture.publicUrl to a tunnel in front of it)'
      : facts.captureUnreachable ?? null);

  return { capabilities, missing };
}

/** Is the URL's host this machine (localhost, 127.0.0.0/8, ::1)? */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
