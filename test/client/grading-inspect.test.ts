/** The grading recorder's pure helpers (mock/grading/inspect.ts): what the judgement of the authorization request rests on. */
import { describe, expect, it } from 'vitest';
import { redirectUriDiff, specEndpointName, unencodedParams } from '../../mock/grading/inspect.js';

describe('the authorization request, as recorded', () => {
  it('redirectUriDiff: the components that differ from the registered redirect_uri', () => {
    const registered = 'http://127.0.0.1:3000/callback';
    expect(redirectUriDiff(registered, registered)).toEqual([]);
    expect(redirectUriDiff('https://127.0.0.1:3000/callback', registered)).toEqual(['scheme']);
    expect(redirectUriDiff('http://localhost:3000/callback', registered)).toEqual(['host']);
    expect(redirectUriDiff('http://127.0.0.1:3001/callback', registered)).toEqual(['port']);
    expect(redirectUriDiff('http://127.0.0.1:3000/callback/again', registered)).toEqual(['path']);
    expect(redirectUriDiff('http://127.0.0.1:3000/callback?from=app', registered)).toEqual(['query']);
    expect(redirectUriDiff('http://127.0.0.1:3000/CALLBACK', registered)).toEqual(['case']);
  });

  it('unencodedParams: a value left as it is, not an encoded one (whatever encoder wrote it)', () => {
    const uri = 'http://127.0.0.1:3000/callback';
    expect(unencodedParams(`/oauth/authorization?client_id=c&redirect_uri=${encodeURIComponent(uri)}&state=s`, ['client_id', 'redirect_uri', 'state'])).toEqual([]);
    expect(unencodedParams(`/oauth/authorization?${new URLSearchParams({ redirect_uri: uri })}`, ['redirect_uri'])).toEqual([]);
    expect(unencodedParams(`/oauth/authorization?client_id=c&redirect_uri=${uri}&state=s`, ['client_id', 'redirect_uri', 'state'])).toEqual(['redirect_uri']);
    expect(unencodedParams('/oauth/authorization?state=a%zz', ['state'])).toEqual(['state']);
  });

  it('specEndpointName: the endpoint as the spec names it', () => {
    expect(specEndpointName('GET', '/api/users/me')).toBe('GET /users/me');
    expect(specEndpointName('DELETE', '/api/webhook/:lockID/:clientID')).toBe('DELETE /webhook/:lockID/:clientID');
    expect(specEndpointName('PUT', '/api/remoteoperate/:lockId/status')).toBe('/remoteoperate/status');
    expect(specEndpointName('GET', '/api/other')).toBeNull();
  });
});
