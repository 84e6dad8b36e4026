/** A target profile as the LOCKCONF_* variables global setup reads. */
import type { TargetProfile } from '../../harness/contracts.js';

/** The profile's endpoints and credentials (no control, fixtures or cache: callers add what their case needs). */
export function targetEnv(p: TargetProfile): Record<string, string> {
  return {
    LOCKCONF_AUTH_URL: p.authUrl,
    LOCKCONF_BASE_URL: p.baseUrl,
    LOCKCONF_CLIENT_ID: p.clientId,
    LOCKCONF_CLIENT_SECRET: p.clientSecret,
    LOCKCONF_API_KEY: p.apiKey,
    LOCKCONF_REDIRECT_URI: p.redirectUri,
  };
}
