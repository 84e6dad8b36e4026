/**
 * Last line of defence for text the reporter takes from vitest itself (error
 * messages of tests that died outside the harness's redacting checks): known
 * secret values and anything shaped like a JWT are replaced before the text
 * reaches a report file.
 */

const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g;

export function makeScrubber(secrets: Iterable<string | null | undefined>): (text: string) => string {
  const values = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= 6))].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text.replace(JWT, '‹jwt›');
    for (const v of values) {
      for (const form of new Set([v, encodeURIComponent(v)])) out = out.split(form).join('‹secret›');
    }
    return out;
  };
}

/** Secret values the reporter can know without the Redactor: profile variables and fixed mock credentials. */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  for (const name of ['LOCKCONF_CLIENT_SECRET', 'LOCKCONF_API_KEY', 'LOCKCONF_CONTROL_TOKEN']) {
    const v = env[name];
    if (v) out.push(v);
  }
  try {
    const creds = (JSON.parse(env.LOCKCONF_MOCK_OPTIONS ?? '{}') as { credentials?: Record<string, unknown> }).credentials ?? {};
    for (const key of ['clientSecret', 'apiKey', 'controlToken']) {
      const v = creds[key];
      if (typeof v === 'string') out.push(v);
    }
  } catch {
    /* not JSON: the CLI reports it */
  }
  return out;
}
