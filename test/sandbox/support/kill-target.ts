/**
 * The service the kill test runs against, with a way to sign in afresh (the
 * start of the chain, and a re-seed after a loss).
 */
import type { TargetProfile, TokenSet } from '../../../harness/contracts.js';
import { seedPair, startFakeService } from './fake-service.js';

export interface KillTarget {
  profile: TargetProfile;
  signIn(): Promise<TokenSet>;
  close(): Promise<void>;
}

export async function startKillTarget(): Promise<KillTarget> {
  const svc = await startFakeService();
  return { profile: svc.profile, signIn: async () => seedPair(svc), close: () => svc.close() };
}
