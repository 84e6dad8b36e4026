/** The grading recorder's pure helpers (mock/grading/inspect.ts): what the judgement of the authorization request rests on. */
import { describe, expect, it } from 'vitest';
import { formEncodingErrors, formValueState, gradingClientSecret, redirectUriDiff, registrationTypeErrors, specEndpointName, unencodedParams } from '../../mock/grading/inspect.js';
import { parseFormBody } from '../../mock/oauth/form-body.js';

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

  it('formEncodingErrors: the graded secret, codes and refresh tokens pasted into a body unencoded, or encoded twice, are told from the real ones', () => {
    const secret = gradingClientSecret(Buffer.alloc(24, 7));
    const code = 'abc+/=';
    const fields = (body: string) => new Map(Object.entries(parseFormBody(body)).filter((e): e is [string, string] => typeof e[1] === 'string'));
    expect(formEncodingErrors(fields(new URLSearchParams({ client_secret: secret, code }).toString()), secret)).toEqual([]);
    expect(formEncodingErrors(fields(`client_secret=${secret}&code=${code}`), secret)).toEqual(['client_secret (not URL-encoded)', 'code (not URL-encoded)']);
    expect(formEncodingErrors(fields(new URLSearchParams({ client_secret: encodeURIComponent(secret), code: encodeURIComponent(code) }).toString()), secret)).toEqual(['client_secret (URL-encoded twice)', 'code (URL-encoded twice)']);
    expect(formValueState(undefined, secret)).toBe('missing');
    expect(formValueState('other', secret)).toBe('wrong');
  });

  it('registrationTypeErrors: each field by the type of the registration table; a field left out is no error', () => {
    expect(registrationTypeErrors({ url: 'http://127.0.0.1:1/w', method: 'POST', clientID: 'c', header: 'h', token: 't', notificationTypes: ['operation'] })).toEqual([]);
    expect(registrationTypeErrors({})).toEqual([]);
    expect(registrationTypeErrors({ notificationTypes: 'operation,battery', token: 5, url: 'not a url' })).toEqual(['token is a number, not a string', 'url is not a URL', 'notificationTypes is a string, not an array of string']);
    expect(registrationTypeErrors('text')).toEqual(['the body is not a JSON object']);
  });
});
