/**
 * Preflight judges the user's profile, never the target: only an answer to the
 * profile's secret that is the same as to a made-up one, and reads as a refused
 * client, stops the run. Targets are simulated by how they answer.
 */
import { describe, expect, it } from 'vitest';
import type { TargetProfile } from '../../../harness/contracts.js';
import { isLockconfError } from '../../../harness/run/errors.js';
import { preflight, type Answer, type PreflightOptions } from '../../../harness/service/preflight.js';

const profile = {
  authUrl: 'http://127.0.0.1:1/oauth', baseUrl: 'http://127.0.0.1:1/api', clientId: 'client', clientSecret: 'right-secret', apiKey: 'right-key',
  redirectUri: 'http://127.0.0.1:1/cb', controlUrl: null, controlToken: null, fixtures: { users: [], locks: [] },
  capture: { listen: '127.0.0.1:0', publicUrl: null }, statusCheck: { method: 'PUT', path: '/x/{lockId}' }, tokenCache: '.lockconf/tokens.json',
} as TargetProfile;

type Init = Parameters<NonNullable<PreflightOptions['send']>>[1];
const json = (status: number, error: string, text = `{"error":"${error}"}`): Answer => ({ status, error, text });

/** A target: how its token endpoint and its API answer. */
function target(token: (form: URLSearchParams, init: Init) => Answer, api: (init: Init) => Answer = () => json(401, 'invalid_token')) {
  return async (url: string, init: Init): Promise<Answer> => {
    if (init.method === 'GET' && !url.endsWith('/users/me')) return { status: 404, error: null, text: '' };
    if (url.endsWith('/access_token')) return token(new URLSearchParams(init.body ?? ''), init);
    return api(init);
  };
}

const opts = (send: PreflightOptions['send']): PreflightOptions => ({ choice: { file: null, variables: ['LOCKCONF_CLIENT_SECRET', 'LOCKCONF_API_KEY'] }, env: {}, send });

async function codeOf(p: Promise<void>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (err) {
    return isLockconfError(err) ? err.code : String(err);
  }
}

describe('preflight', () => {
  const conforming = (form: URLSearchParams) => (form.get('client_secret') === 'right-secret' ? json(400, 'invalid_grant') : json(400, 'invalid_client', '{"error":"invalid_client","error_description":"secrets did not match"}'));

  it('passes a profile whose secret and key the target tells from made-up ones', async () => {
    const api = (init: Init) => (init.headers['x-api-key'] === 'right-key' ? json(401, 'invalid_token') : json(401, 'invalid_api_key'));
    expect(await codeOf(preflight(profile, opts(target(conforming, api))))).toBeNull();
  });

  it('stops a wrong secret: the same answer as a made-up one, read as a refused client', async () => {
    const wrong = { ...profile, clientSecret: 'typo' };
    expect(await codeOf(preflight(wrong, opts(target(conforming))))).toBe('ERR_CREDENTIALS_REFUSED');
  });

  it('stops a wrong API key only when the answer names the key', async () => {
    const wrong = { ...profile, apiKey: 'typo' };
    const api = (init: Init) => (init.headers['x-api-key'] === 'right-key' ? json(401, 'invalid_token') : json(401, 'invalid_api_key'));
    expect(await codeOf(preflight(wrong, opts(target(conforming, api))))).toBe('ERR_API_KEY_REFUSED');
    // A target that checks the token first answers both alike without naming the key: not blamed on the profile.
    expect(await codeOf(preflight(wrong, opts(target(conforming, () => json(401, 'invalid_token')))))).toBeNull();
  });

  it('goes on when a target answers every secret alike without saying the client was refused', async () => {
    expect(await codeOf(preflight(profile, opts(target(() => json(400, 'invalid_grant')))))).toBeNull();
  });

  it('goes on, with a diagnosis, when the target takes the secret in a Basic header instead of the body', async () => {
    const lines: string[] = [];
    const basicOnly = (form: URLSearchParams, init: Init) => {
      const basic = init.headers.authorization ?? '';
      return basic === `Basic ${Buffer.from('client:right-secret').toString('base64')}` ? json(400, 'invalid_grant') : json(401, 'invalid_client');
    };
    expect(await codeOf(preflight(profile, { ...opts(target(basicOnly)), log: (l) => lines.push(l) }))).toBeNull();
    expect(lines.join('\n')).toContain('takes it in an Authorization: Basic header');
  });

  describe('the control token, when the profile has a control URL', () => {
    const controlled = { ...profile, controlUrl: 'http://127.0.0.1:1/_control', controlToken: 'right-control-token' };
    const api = (init: Init) => (init.headers['x-api-key'] === 'right-key' ? json(401, 'invalid_token') : json(401, 'invalid_api_key'));
    /** A target whose GET /_control/fixtures answers as `control` says. */
    const withControl = (control: (init: Init) => Answer) => {
      const base = target(conforming, api);
      return async (url: string, init: Init): Promise<Answer> => (url.endsWith('/_control/fixtures') ? control(init) : base(url, init));
    };
    const checksToken = (init: Init) => (init.headers['x-control-token'] === 'right-control-token' ? json(200, '', '{"users":[],"locks":[]}') : json(401, 'unauthorized'));

    it('a token the control interface accepts passes', async () => {
      expect(await codeOf(preflight(controlled, opts(withControl(checksToken))))).toBeNull();
    });

    it('a wrong token, refused like a made-up one, stops the run naming LOCKCONF_CONTROL_TOKEN, never the token', async () => {
      const wrong = { ...controlled, controlToken: 'typo-in-the-token-77' };
      const choice = { file: null, variables: ['LOCKCONF_CONTROL_TOKEN'] };
      const err = await preflight(wrong, { choice, env: {}, send: withControl(checksToken) }).then(() => null, (e: Error) => e);
      expect(isLockconfError(err, 'ERR_CONTROL_TOKEN_REFUSED')).toBe(true);
      expect(err!.message).toContain('LOCKCONF_CONTROL_TOKEN (environment variable)');
      expect(err!.message).toContain('HTTP 401 "unauthorized"');
      expect(err!.message).not.toContain('typo-in-the-token-77');
    });

    it('a control interface that fails alike for every token without reading as a refusal is left to the run (not blamed on the token)', async () => {
      expect(await codeOf(preflight(controlled, opts(withControl(() => json(500, 'internal_error')))))).toBeNull();
    });

    it('a control interface that does not answer is left to the run, which reports what needs it as not tested', async () => {
      const down = () => { throw Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }); };
      const lines: string[] = [];
      expect(await codeOf(preflight(controlled, { ...opts(withControl(down)), log: (l) => lines.push(l) }))).toBeNull();
      expect(lines.join('\n')).toContain('the control interface did not answer (nothing listens');
    });

    it('LOCKCONF_PREFLIGHT=0 skips it', async () => {
      const wrong = { ...controlled, controlToken: 'typo' };
      expect(await codeOf(preflight(wrong, { ...opts(withControl(checksToken)), env: { LOCKCONF_PREFLIGHT: '0' } }))).toBeNull();
    });
  });

  it('says the target does not answer, naming the variable of the address', async () => {
    const down = async (): Promise<Answer> => { throw Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }); };
    const choice = { file: null, variables: ['LOCKCONF_AUTH_URL'] };
    try {
      await preflight(profile, { choice, env: {}, send: down });
      expect.unreachable();
    } catch (err) {
      expect(isLockconfError(err, 'ERR_TARGET_UNREACHABLE')).toBe(true);
      expect((err as Error).message).toContain('LOCKCONF_AUTH_URL (environment variable)');
      expect((err as Error).message).toContain('ECONNREFUSED');
    }
  });
});
