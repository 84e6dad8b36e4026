/**
 * The judgement of a client's recording (harness/client/judge.ts), one rule at a
 * time, each with a recording that keeps it and one that breaks it.
 */
import { describe, expect, it } from 'vitest';
import { judgeClient, window, type ClientJudgement, type ProbeReport } from '../../harness/client/judge.js';
import type { ApiEvent, GradedEvent, TokenEvent } from '../../mock/grading/recording.js';

const C = 'client-1';
type New = GradedEvent extends infer E ? (E extends GradedEvent ? Omit<E, 'seq' | 'at' | 'startTick' | 'endTick' | 'clientId'> & { clientId?: string | null } : never) : never;

/** A recording in order: each request ends before the next starts. */
function recording(...events: New[]): GradedEvent[] {
  return events.map((e, i) => ({ clientId: C, ...e, seq: i + 1, at: 1000 + i, startTick: 2 * i + 1, endTick: 2 * i + 2 }) as GradedEvent);
}

function token(over: Partial<TokenEvent>): New {
  return {
    type: 'token', method: 'POST', contentType: 'application/x-www-form-urlencoded', bodyFields: ['client_id', 'client_secret', 'grant_type'],
    queryFields: [], grantType: 'refresh_token', basicHeader: false, secretIn: [], codeFp: null, refreshFp: null, status: 200,
    issuedAccessFp: null, issuedRefreshFp: null, ...over,
  } as New;
}

function api(over: Partial<ApiEvent>): New {
  return {
    type: 'api', method: 'GET', route: '/users/me', apiKey: 'ok', accessToken: 'ok', accessFp: 'a0', contentType: 'application/json',
    hasBody: false, secretIn: [], status: 200, rotatedFp: null, registration: null, deleteClientIdOwn: null, ...over,
  } as New;
}

function judged(events: GradedEvent[], id: string, probes: ProbeReport = {}): ClientJudgement {
  const j = judgeClient(events, C, probes).find((x) => x.id === id);
  if (!j) throw new Error(`no judgement for ${id}`);
  return j;
}

const codeGrant = (fp: string) => token({ grantType: 'authorization_code', codeFp: fp, issuedAccessFp: 'a0', issuedRefreshFp: 'r0' });
const redirect = (fp: string | null): New => ({ type: 'redirect', codeFp: fp, denied: fp === null } as New);

describe('Authorization code flow', () => {
  it('CLIENT-CODE-ONCE: a code presented twice fails; once passes', () => {
    expect(judged(recording(redirect('c1'), codeGrant('c1')), 'CLIENT-CODE-ONCE').status).toBe('passed');
    const twice = judged(recording(redirect('c1'), codeGrant('c1'), codeGrant('c1')), 'CLIENT-CODE-ONCE');
    expect(twice.status).toBe('failed');
    expect(twice.violations).toEqual([expect.stringContaining('the same code was presented again: #3')]);
  });

  it('CLIENT-CODE-FROM-REDIRECT: a code no redirect carried fails', () => {
    expect(judged(recording(codeGrant('made-up')), 'CLIENT-CODE-FROM-REDIRECT').status).toBe('failed');
  });

  it('CLIENT-STATE-CHECKED: not tested without the probe; failed when the tampered code is exchanged', () => {
    expect(judged(recording(redirect('c1'), codeGrant('c1')), 'CLIENT-STATE-CHECKED').reason).toContain('connectUrl');
    const probes: ProbeReport = { state: [{ tamper: 'suffix', flowEnd: 'approval', ran: true, codeFp: 'c1' }] };
    expect(judged(recording(redirect('c1')), 'CLIENT-STATE-CHECKED', probes).status).toBe('passed');
    expect(judged(recording(redirect('c1'), codeGrant('c1')), 'CLIENT-STATE-CHECKED', probes).status).toBe('failed');
  });

  it('CLIENT-AUTHZ-REQUEST: an authorization request without state fails', () => {
    const noState = recording({ type: 'authorize', hasClientId: true, hasRedirectUri: true, hasState: false, status: 200, secretIn: [] } as New);
    expect(judged(noState, 'CLIENT-AUTHZ-REQUEST').violations).toEqual([expect.stringMatching(/^no state: /)]);
  });
});

describe('POST {auth_url}/access_token', () => {
  it('judges method, content type, body fields, Basic and where the secret went', () => {
    const bad = recording(token({ method: 'GET', contentType: null, bodyFields: [], basicHeader: true, secretIn: ['url'], grantType: 'client_credentials' }));
    for (const id of ['CLIENT-TOKEN-FORM-POST', 'CLIENT-TOKEN-BODY-FIELDS', 'CLIENT-TOKEN-NO-BASIC', 'CLIENT-SECRET-ONLY-IN-FORM']) {
      expect(judged(bad, id).status, id).toBe('failed');
      expect(judged(recording(token({ grantType: 'client_credentials' })), id).status, id).toBe('passed');
    }
  });

  it('is not tested when the application made no token request', () => {
    expect(judged(recording(), 'CLIENT-TOKEN-FORM-POST')).toMatchObject({ status: 'not-tested', reason: 'the application made no token request' });
  });
});

describe('Refresh flow', () => {
  const start = codeGrant('c1');
  it('a chain refreshed with each new token passes; presenting a spent one fails single use and latest', () => {
    const good = recording(redirect('c1'), start, token({ refreshFp: 'r0', issuedRefreshFp: 'r1' }), token({ refreshFp: 'r1', issuedRefreshFp: 'r2' }));
    expect(judged(good, 'CLIENT-REFRESH-SINGLE-USE').status).toBe('passed');
    expect(judged(good, 'CLIENT-REFRESH-STORE-NEW').status).toBe('passed');
    const reused = recording(redirect('c1'), start, token({ refreshFp: 'r0', issuedRefreshFp: 'r1' }), token({ refreshFp: 'r0', status: 400 }));
    expect(judged(reused, 'CLIENT-REFRESH-SINGLE-USE').status).toBe('failed');
    expect(judged(reused, 'CLIENT-REFRESH-STORE-NEW').status).toBe('failed');
  });

  it('CLIENT-REFRESH-STORE-NEW: a token never issued as a refresh token fails', () => {
    expect(judged(recording(redirect('c1'), start, token({ refreshFp: 'a0', status: 400 })), 'CLIENT-REFRESH-STORE-NEW').status).toBe('failed');
  });

  it('CLIENT-REFRESH-NO-RETRY: not tested until a refresh is refused; a retry of the refused token fails', () => {
    expect(judged(recording(redirect('c1'), start), 'CLIENT-REFRESH-NO-RETRY').status).toBe('not-tested');
    const once = recording(redirect('c1'), start, token({ refreshFp: 'r0', status: 400 }));
    expect(judged(once, 'CLIENT-REFRESH-NO-RETRY').status).toBe('passed');
    const retried = recording(redirect('c1'), start, token({ refreshFp: 'r0', status: 400 }), token({ refreshFp: 'r0', status: 400 }));
    expect(judged(retried, 'CLIENT-REFRESH-NO-RETRY').violations).toEqual([expect.stringContaining('refused with 400 in #3 was presented again: #4')]);
  });
});

describe('Request headers for API calls', () => {
  it('judges each header and their encoding', () => {
    const bad = recording(codeGrant('c1'), api({ apiKey: 'missing', accessToken: 'missing', contentType: null }), api({ apiKey: 'url-encoded' }));
    expect(judged(bad, 'CLIENT-API-KEY-HEADER').violations).toHaveLength(1);
    expect(judged(bad, 'CLIENT-API-ACCESS-TOKEN-HEADER').violations).toHaveLength(1);
    expect(judged(bad, 'CLIENT-API-CONTENT-TYPE').violations).toHaveLength(1);
    expect(judged(bad, 'CLIENT-API-HEADERS-NOT-ENCODED').violations).toHaveLength(1);
    expect(judged(recording(api({ contentType: 'application/json; charset=utf-8' })), 'CLIENT-API-CONTENT-TYPE').status).toBe('passed');
    // x-access-token carries an access token the service issued to this client (a token response's, or an answer's x-access-token).
    expect(judged(recording(api({ accessFp: 'r0' })), 'CLIENT-API-ACCESS-TOKEN-HEADER').violations).toEqual([expect.stringContaining('not an access token the service issued')]);
    expect(judged(recording(codeGrant('c1'), api({ accessFp: 'a0', rotatedFp: 'a1' }), api({ accessFp: 'a1' })), 'CLIENT-API-ACCESS-TOKEN-HEADER').status).toBe('passed');
  });

  it('CLIENT-ADOPT-NEW-ACCESS-TOKEN: the replaced token presented after its successor arrived fails', () => {
    const adopted = recording(api({ accessFp: 'a0', rotatedFp: 'a1' }), api({ accessFp: 'a1', rotatedFp: 'a2' }));
    expect(judged(adopted, 'CLIENT-ADOPT-NEW-ACCESS-TOKEN').status).toBe('passed');
    const kept = recording(api({ accessFp: 'a0', rotatedFp: 'a1' }), api({ accessFp: 'a0', rotatedFp: 'a2' }));
    expect(judged(kept, 'CLIENT-ADOPT-NEW-ACCESS-TOKEN').status).toBe('failed');
  });

  it('CLIENT-ADOPT-NEW-ACCESS-TOKEN: two calls in flight with the same token are not stale', () => {
    const overlapping = [
      { clientId: C, ...api({ accessFp: 'a0', rotatedFp: 'a1' }), seq: 1, at: 1, startTick: 1, endTick: 3 },
      { clientId: C, ...api({ accessFp: 'a0', rotatedFp: 'a2' }), seq: 2, at: 2, startTick: 2, endTick: 4 },
    ] as GradedEvent[];
    expect(judged(overlapping, 'CLIENT-ADOPT-NEW-ACCESS-TOKEN').violations).toEqual([]);
  });

  it('CLIENT-REAUTHORIZE-ON-401: the refused token presented again fails; in the probe window, authorization must follow', () => {
    expect(judged(recording(api({ status: 401 }), api({ status: 401 })), 'CLIENT-REAUTHORIZE-ON-401').status).toBe('failed');
    const mark = (label: string): New => ({ type: 'mark', label, clientId: null } as New);
    const authz: New = { type: 'authorize', hasClientId: true, hasRedirectUri: true, hasState: true, status: 200, secretIn: [] } as New;
    const probes: ProbeReport = { api401: { ran: true } };
    expect(judged(recording(mark('api-401:start'), api({ status: 401 }), authz, mark('api-401:end')), 'CLIENT-REAUTHORIZE-ON-401', probes).status).toBe('passed');
    expect(judged(recording(mark('api-401:start'), api({ status: 401 }), mark('api-401:end')), 'CLIENT-REAUTHORIZE-ON-401', probes).status).toBe('failed');
  });
});

describe('Webhook registration', () => {
  it('judges clientID, groups of the kind, and bodies on DELETE', () => {
    const reg = (kind: 'lock' | 'user', groups: string[], own: boolean | null) =>
      api({ method: 'POST', route: kind === 'user' ? '/webhook/user' : '/webhook/:lockID', registration: { kind, clientIdOwn: own, groups } });
    const good = recording(reg('lock', ['operation', 'battery'], true), reg('user', ['lifecycle'], null), api({ method: 'DELETE', route: '/webhook/:lockID/:clientID', deleteClientIdOwn: true }));
    for (const id of ['CLIENT-WEBHOOK-CLIENT-ID', 'CLIENT-WEBHOOK-GROUPS', 'CLIENT-DELETE-NO-BODY']) expect(judged(good, id).status, id).toBe('passed');
    const bad = recording(reg('lock', ['lifecycle'], false), api({ method: 'DELETE', route: '/webhook/user', hasBody: true }));
    for (const id of ['CLIENT-WEBHOOK-CLIENT-ID', 'CLIENT-WEBHOOK-GROUPS', 'CLIENT-DELETE-NO-BODY']) expect(judged(bad, id).status, id).toBe('failed');
  });
});

describe('where the session probe met an error answer', () => {
  const answer = 'the application answered 403 to clicking "Register webhook" (action 1)';
  const byId = (probes: ProbeReport) => new Map(judgeClient([], 'c1', probes).map((j) => [j.id, j]));
  it('the rules its actions and refreshes feed name it, and no other rule does', () => {
    for (const session of [{ ran: true as const, errorAnswers: [answer] }, { ran: false as const, why: `a step failed; before that, ${answer}` }]) {
      const judged = byId({ session });
      for (const id of ['CLIENT-WEBHOOK-GROUPS', 'CLIENT-WEBHOOK-CLIENT-ID', 'CLIENT-DELETE-NO-BODY', 'CLIENT-REFRESH-SINGLE-USE']) {
        expect(judged.get(id)?.status, id).toBe('not-tested');
        expect(judged.get(id)?.reason, id).toContain(answer);
      }
      for (const id of ['CLIENT-AUTHZ-REQUEST', 'CLIENT-TOKEN-FORM-POST', 'CLIENT-STATE-CHECKED']) expect(judged.get(id)?.reason, id).not.toContain(answer);
    }
  });
});

describe('values, not presence', () => {
  it('CLIENT-TOKEN-BODY-FIELDS: grant_type is judged by value: refresh on a refresh grant fails, and the refresh is still judged as one', () => {
    const refreshFields = ['client_id', 'client_secret', 'grant_type', 'refresh_token'];
    const wrong = recording(codeGrant('c1'), token({ grantType: 'refresh', refreshFp: 'r0', bodyFields: refreshFields, status: 400 }));
    const j = judged(wrong, 'CLIENT-TOKEN-BODY-FIELDS');
    expect(j.status).toBe('failed');
    expect(j.slices?.find((s) => s.value === 'refresh_token')?.status).toBe('failed');
    expect(judged(wrong, 'CLIENT-REFRESH-STORE-NEW').checked).toBe(1);
    const swapped = recording(token({ grantType: 'authorization_code', refreshFp: 'r0', bodyFields: [...refreshFields, 'code'].filter((f) => f !== 'code') }));
    expect(judged(swapped, 'CLIENT-TOKEN-BODY-FIELDS').status).toBe('failed');
    expect(judged(recording(token({ grantType: 'refresh_token', refreshFp: 'r0', bodyFields: refreshFields, secretValue: 'wrong' })), 'CLIENT-TOKEN-BODY-FIELDS').status).toBe('failed');
  });

  it('CLIENT-TOKEN-BODY-FIELDS: a refresh after a 401 is judged like any other', () => {
    const after401 = recording(codeGrant('c1'), api({ status: 401 }), token({ grantType: 'refresh', refreshFp: 'r0', bodyFields: ['client_id', 'client_secret', 'grant_type', 'refresh_token'] }));
    expect(judged(after401, 'CLIENT-TOKEN-BODY-FIELDS').status).toBe('failed');
  });

  it('CLIENT-TOKEN-FORM-POST: a body that does not decode, or values it altered, fail', () => {
    expect(judged(recording(token({ malformed: true })), 'CLIENT-TOKEN-FORM-POST').status).toBe('failed');
    expect(judged(recording(token({ encodingErrors: ['client_secret (not URL-encoded)'] })), 'CLIENT-TOKEN-FORM-POST').violations).toEqual([expect.stringContaining('client_secret (not URL-encoded)')]);
    expect(judged(recording(token({ encodingErrors: [] })), 'CLIENT-TOKEN-FORM-POST').status).toBe('passed');
  });

  it('CLIENT-WEBHOOK-GROUPS: notificationTypes as one comma-separated string fails; registrations naming no group are no pass', () => {
    const asString = api({ method: 'POST', route: '/webhook/:lockID', registration: { kind: 'lock', clientIdOwn: true, groups: [], typeErrors: ['notificationTypes is a string, not an array of string'] } });
    expect(judged(recording(asString), 'CLIENT-WEBHOOK-GROUPS').status).toBe('failed');
    const none = api({ method: 'POST', route: '/webhook/:lockID', registration: { kind: 'lock', clientIdOwn: true, groups: [], typeErrors: [] } });
    const j = judged(recording(none), 'CLIENT-WEBHOOK-GROUPS');
    expect(j.status).toBe('not-tested');
    expect(j.reason).toContain('no value of them was judged');
    expect(j.slices?.every((s) => s.status === 'not-tested')).toBe(true);
  });

  it('CLIENT-WEBHOOK-FIELD-TYPES and CLIENT-WEBHOOK-ENDPOINT: a token that is a number, a registration as PUT, a lock deletion without :clientID fail', () => {
    const numberToken = api({ method: 'POST', route: '/webhook/user', registration: { kind: 'user', clientIdOwn: true, groups: ['lifecycle'], typeErrors: ['token is a number, not a string'] } });
    expect(judged(recording(numberToken), 'CLIENT-WEBHOOK-FIELD-TYPES').status).toBe('failed');
    const put = api({ method: 'PUT', route: '/webhook/ABC', status: 404, hasBody: true });
    const short = api({ method: 'DELETE', route: '/webhook/ABC', status: 404 });
    const j = judged(recording(put, short), 'CLIENT-WEBHOOK-ENDPOINT');
    expect(j.slices?.filter((s) => s.status === 'failed').map((s) => s.value)).toEqual(['POST /webhook/:lockID', 'DELETE /webhook/:lockID/:clientID']);
    expect(judged(recording(api({ method: 'DELETE', route: '/webhook/user' })), 'CLIENT-WEBHOOK-ENDPOINT').status).toBe('passed');
  });

  it('CLIENT-REAUTHORIZE-ON-401: the refused token presented again after a 401 at a point of the flow fails that flow-point slice', () => {
    const mark = (label: string): New => ({ type: 'mark', label, clientId: null } as New);
    const events = recording(mark('api-401:after-refresh:start'), api({ status: 401, accessFp: 'a1' }), api({ accessFp: 'a1', route: '/users/locks/mine' }), mark('api-401:after-refresh:end'));
    const probes: ProbeReport = { api401Points: [{ point: 'after-refresh', ran: true }, { point: 'drawn-call', ran: false, why: 'no actions' }] };
    const j = judged(events, 'CLIENT-REAUTHORIZE-ON-401', probes);
    const slice = (x: ClientJudgement, dim: string, value: string) => x.slices?.find((s) => s.dim === dim && s.value === value);
    expect(slice(j, 'flow-point', 'after-refresh')?.status).toBe('failed');
    expect(slice(j, 'flow-point', 'drawn-call')).toMatchObject({ status: 'not-tested', reason: expect.stringContaining('no actions') });
    expect(slice(j, 'endpoint', 'GET /users/me')?.status).toBe('failed');
  });

  it('CLIENT-TOKEN-FIELD-ONCE: a form field given twice fails its grant\'s slice (RFC 6749 §3.2); CLIENT-TOKEN-BODY-FIELDS does not judge it', () => {
    const twice = token({ grantType: 'authorization_code', codeFp: 'c1', bodyFields: ['client_id', 'client_secret', 'grant_type', 'code'], repeated: ['client_id'] });
    const j = judged(recording(twice), 'CLIENT-TOKEN-FIELD-ONCE');
    expect(j.violations).toEqual([expect.stringContaining('given more than once in the form body: client_id')]);
    expect(j.slices?.map((s) => [s.value, s.status])).toEqual([['authorization_code', 'failed'], ['refresh_token', 'not-tested']]);
    expect(judged(recording(twice), 'CLIENT-TOKEN-BODY-FIELDS').status).toBe('passed');
    expect(judged(recording(token({ refreshFp: 'r1', bodyFields: ['client_id', 'client_secret', 'grant_type', 'refresh_token'], repeated: [] })), 'CLIENT-TOKEN-FIELD-ONCE').status).toBe('passed');
  });

  it('CLIENT-WEBHOOK-ENDPOINT judges only calls meant as the four endpoints: a GET listing or reading registrations is an endpoint the spec does not show', () => {
    const reads = [api({ method: 'GET', route: '/webhooks', status: 404 }), api({ method: 'GET', route: '/webhook/ABC', status: 404 }), api({ method: 'GET', route: '/webhook/user', status: 404 })];
    expect(judged(recording(...reads), 'CLIENT-WEBHOOK-ENDPOINT')).toMatchObject({ status: 'not-tested', violations: [] });
    const registration = api({ method: 'POST', route: '/webhook/user', registration: { kind: 'user', clientIdOwn: true, groups: ['lifecycle'] } });
    expect(judged(recording(...reads, registration), 'CLIENT-WEBHOOK-ENDPOINT').status).toBe('passed');
    // A write to a registration's path by another method still fails: it was meant as the registration.
    expect(judged(recording(api({ method: 'PATCH', route: '/webhook/ABC', status: 404, hasBody: true })), 'CLIENT-WEBHOOK-ENDPOINT').status).toBe('failed');
  });

  it('what the application sends the browser: the secret fails CLIENT-SECRET-ONLY-IN-FORM on request-kind=browser, the API key warns CLIENT-API-KEY-NOT-TO-BROWSER', () => {
    const clean: ProbeReport = { browser: { ran: true, responses: 4, secretAt: [], apiKeyAt: [] } };
    expect(judged(recording(api({})), 'CLIENT-API-KEY-NOT-TO-BROWSER', clean).status).toBe('passed');
    const leaky: ProbeReport = { browser: { ran: true, responses: 4, secretAt: ['GET /'], apiKeyAt: ['GET /'] } };
    const secret = judged(recording(api({})), 'CLIENT-SECRET-ONLY-IN-FORM', leaky);
    expect(secret.slices?.find((s) => s.value === 'browser')?.status).toBe('failed');
    expect(secret.slices?.find((s) => s.value === 'api')?.status).toBe('passed');
    expect(judged(recording(api({})), 'CLIENT-API-KEY-NOT-TO-BROWSER', leaky).status).toBe('failed');
    expect(judged(recording(api({})), 'CLIENT-API-KEY-NOT-TO-BROWSER').status).toBe('not-tested');
  });

  it('CLIENT-STATE-SESSION-BOUND: the code of another session\'s state, or of a browser without the cookie, exchanged fails its slice; CLIENT-STATE-CHECKED does not judge them', () => {
    const probes: ProbeReport = { state: [{ tamper: 'other-session', flowEnd: 'approval', ran: true, codeFp: 'c1' }, { tamper: 'no-cookie', flowEnd: 'approval', ran: true, codeFp: 'c2' }] };
    const j = judged(recording(redirect('c1'), redirect('c2'), codeGrant('c2')), 'CLIENT-STATE-SESSION-BOUND', probes);
    expect(j.slices?.map((s) => [s.value, s.status])).toEqual([['other-session', 'passed'], ['no-cookie', 'failed']]);
    expect(judged(recording(redirect('c1'), redirect('c2'), codeGrant('c2')), 'CLIENT-STATE-CHECKED', probes).status).toBe('not-tested');
  });
});

describe('the recording', () => {
  it('judges only the named client', () => {
    const other = recording({ ...api({ apiKey: 'missing' }), clientId: 'someone-else' } as New);
    expect(judged(other, 'CLIENT-API-KEY-HEADER').status).toBe('not-tested');
  });

  it('window(): the events between a probe\'s marks, or null without them', () => {
    const events = recording({ type: 'mark', label: 'denial:start', clientId: null } as New, api({}), { type: 'mark', label: 'denial:end', clientId: null } as New);
    expect(window(events, 'denial')?.map((e) => e.seq)).toEqual([2]);
    expect(window(events, 'api-401')).toBeNull();
  });
});

describe('slices (harness/catalog/slices/client.ts)', () => {
  const slice = (j: ClientJudgement, dim: string, value: string) => j.slices?.find((s) => s.dim === dim && s.value === value);

  it('judges each header rule per endpoint: a missing x-api-key on one endpoint fails that slice only; an endpoint never called is not tested', () => {
    const events = recording(api({ route: '/users/me' }), api({ method: 'POST', route: '/webhook/user', apiKey: 'missing' }));
    const j = judged(events, 'CLIENT-API-KEY-HEADER');
    expect(j.status).toBe('failed');
    expect(slice(j, 'endpoint', 'POST /webhook/user')?.status).toBe('failed');
    expect(slice(j, 'endpoint', 'GET /users/me')?.status).toBe('passed');
    expect(slice(j, 'endpoint', 'DELETE /webhook/user')).toMatchObject({ status: 'not-tested', reason: 'the application never called DELETE /webhook/user' });
    expect(slice(judged(recording(api({ method: 'PUT', route: '/remoteoperate/:lockId/status' })), 'CLIENT-API-KEY-HEADER'), 'endpoint', '/remoteoperate/status')?.status).toBe('passed');
  });

  it('CLIENT-STATE-CHECKED: each probe is its tamper and its flow end; an exchanged probe code fails both slices', () => {
    const probes: ProbeReport = { state: [
      { tamper: 'suffix', flowEnd: 'approval', ran: true, codeFp: 'c1' },
      { tamper: 'empty', flowEnd: 'cancellation', ran: true, codeFp: 'c2' },
      { tamper: 'case', flowEnd: 'approval', ran: false, why: 'no letter' },
      { tamper: 'replayed', flowEnd: 'approval', ran: true, codeFp: 'c3' },
    ] };
    const events = recording(redirect('c1'), redirect('c2'), codeGrant('c2'), redirect('c3'));
    const j = judged(events, 'CLIENT-STATE-CHECKED', probes);
    expect(j.status).toBe('failed');
    expect(j.violations).toEqual([expect.stringContaining('whose state was empty (after cancellation) was exchanged')]);
    expect(slice(j, 'state-tamper', 'empty')?.status).toBe('failed');
    expect(slice(j, 'flow-end', 'cancellation')?.status).toBe('failed');
    expect(slice(j, 'state-tamper', 'suffix')?.status).toBe('passed');
    expect(slice(j, 'state-tamper', 'case')).toMatchObject({ status: 'not-tested', reason: expect.stringContaining('no letter') });
    // The replayed probe is CLIENT-STATE-ONE-USE's (SHOULD): held here, broken when its code is exchanged.
    expect(slice(judged(events, 'CLIENT-STATE-ONE-USE', probes), 'flow-end', 'approval')?.status).toBe('passed');
    expect(slice(judged([...events, ...recording(codeGrant('c3'))].map((e, i) => ({ ...e, seq: i + 1, startTick: 2 * i + 1, endTick: 2 * i + 2 })), 'CLIENT-STATE-ONE-USE', probes), 'flow-end', 'approval')?.status).toBe('failed');
  });

  it('CLIENT-STATE-CHECKED: a probe in a browser without the cookie is its arrives-in slice; a drawn position is named', () => {
    const probes: ProbeReport = { state: [
      { tamper: 'forged', flowEnd: 'approval', arrivesIn: 'flow-browser', ran: true, codeFp: 'c1' },
      { tamper: 'altered-drawn', flowEnd: 'approval', arrivesIn: 'no-cookie', ran: true, codeFp: 'c2', position: 7 },
    ] };
    const j = judged(recording(redirect('c1'), redirect('c2'), codeGrant('c2')), 'CLIENT-STATE-CHECKED', probes);
    expect(slice(j, 'arrives-in', 'no-cookie')?.status).toBe('failed');
    expect(slice(j, 'arrives-in', 'flow-browser')?.status).toBe('passed');
    expect(slice(j, 'state-tamper', 'altered-drawn')?.status).toBe('failed');
    expect(j.violations).toEqual([expect.stringContaining('one character inside it changed (character 8) (after approval, in a browser without the application\'s cookie) was exchanged')]);
  });

  it('CLIENT-CANCELLATION-STATE-CHECKED: a cancellation that ends the sign-in which an approval with the same state did not end fails; not tested when both end it', () => {
    const p = (tamper: string, codes: [string, string, string]) => ({ tamper, ran: true as const, foreignFp: codes[0], approvalGenuineFp: codes[1], cancellationGenuineFp: codes[2] });
    const probes: ProbeReport = { cancellation: [p('missing', ['f1', 'a1', 'k1']), p('forged', ['f2', 'a2', 'k2']), p('empty', ['f3', 'a3', 'k3']), { tamper: 'suffix', ran: false, why: 'no flow' }] };
    // missing: the sign-in survived both (passed); forged: survived the approval, not the cancellation (failed); empty: survived neither (not tested).
    const events = recording(redirect('f1'), redirect('a1'), codeGrant('a1'), redirect('k1'), codeGrant('k1'), redirect('f2'), redirect('a2'), codeGrant('a2'), redirect('k2'), redirect('f3'), redirect('a3'), redirect('k3'));
    const j = judged(events, 'CLIENT-CANCELLATION-STATE-CHECKED', probes);
    expect(j.status).toBe('failed');
    expect(j.violations).toEqual([expect.stringContaining('after a cancellation redirect whose state was a forged value')]);
    expect(slice(j, 'state-tamper', 'missing')?.status).toBe('passed');
    expect(slice(j, 'state-tamper', 'forged')?.status).toBe('failed');
    expect(slice(j, 'state-tamper', 'empty')).toMatchObject({ status: 'not-tested', reason: expect.stringContaining('gave up the sign-in in progress') });
    expect(slice(j, 'state-tamper', 'suffix')).toMatchObject({ status: 'not-tested', reason: expect.stringContaining('no flow') });
    expect(judged(recording(redirect('a1')), 'CLIENT-CANCELLATION-STATE-CHECKED').status).toBe('not-tested');
  });

  it('CLIENT-REFRESH-IN-FLIGHT: one refresh token in two refreshes in flight, or a page that no longer calls the API after them, fails; not tested without the probe', () => {
    const mark = (label: string): New => ({ type: 'mark', label, clientId: null } as New);
    const page = api({ route: '/users/locks/mine' });
    const probe: ProbeReport = { refreshInFlight: { ran: true } };
    const run = (during: New[], after: New[]) => recording(
      mark('refresh-in-flight:before:start'), page, mark('refresh-in-flight:before:end'),
      mark('refresh-in-flight:start'), ...during, mark('refresh-in-flight:end'),
      mark('refresh-in-flight:after:start'), ...after, mark('refresh-in-flight:after:end'));
    const serial = [token({ refreshFp: 'r1', issuedRefreshFp: 'r2' })];
    expect(judged(run(serial, [page]), 'CLIENT-REFRESH-IN-FLIGHT', probe).status).toBe('passed');
    const twice = judged(run([...serial, token({ refreshFp: 'r1', status: 400 })], [page]), 'CLIENT-REFRESH-IN-FLIGHT', probe);
    expect(twice.violations).toEqual([expect.stringContaining('presented again by a second refresh in flight')]);
    const out = judged(run(serial, [{ type: 'authorize', hasClientId: true, hasRedirectUri: true, hasState: true, status: 200, secretIn: [] } as New]), 'CLIENT-REFRESH-IN-FLIGHT', probe);
    expect(out.violations).toEqual([expect.stringContaining('the user was signed out')]);
    expect(judged(run(serial, [page]), 'CLIENT-REFRESH-IN-FLIGHT', { refreshInFlight: { ran: false, why: 'no refreshUrl' } }).reason).toContain('no refreshUrl');
  });

  it('the refresh chain: a link past the first presenting a redeemed token fails position=later only', () => {
    const chain = recording(redirect('c1'), codeGrant('c1'), token({ refreshFp: 'r0', issuedRefreshFp: 'r1' }), token({ refreshFp: 'r1', issuedRefreshFp: 'r2' }), token({ refreshFp: 'r1', status: 400 }));
    const single = judged(chain, 'CLIENT-REFRESH-SINGLE-USE');
    expect(slice(single, 'position', 'later')?.status).toBe('failed');
    expect(slice(single, 'position', 'first')?.status).toBe('passed');
    const store = judged(chain, 'CLIENT-REFRESH-STORE-NEW');
    expect(slice(store, 'position', 'later')?.status).toBe('failed');
  });

  it('the authorization request: a missing parameter, a redirect_uri component, an unencoded value each fail their slice', () => {
    const authz = (over: Record<string, unknown>): New => ({ type: 'authorize', hasClientId: true, hasRedirectUri: true, hasState: true, status: 200, secretIn: [], redirectUriParts: [], unencoded: [], ...over } as New);
    expect(slice(judged(recording(authz({ hasClientId: false })), 'CLIENT-AUTHZ-REQUEST'), 'authz-param', 'client_id')?.status).toBe('failed');
    expect(slice(judged(recording(authz({ hasClientId: false })), 'CLIENT-AUTHZ-REQUEST'), 'authz-param', 'state')?.status).toBe('passed');
    const port = judged(recording(authz({ redirectUriParts: ['port'] })), 'CLIENT-AUTHZ-REDIRECT-URI');
    expect([slice(port, 'redirect-uri-part', 'port')?.status, slice(port, 'redirect-uri-part', 'path')?.status]).toEqual(['failed', 'passed']);
    expect(slice(judged(recording(authz({ unencoded: ['redirect_uri'] })), 'CLIENT-AUTHZ-URL-ENCODED'), 'authz-param', 'redirect_uri')?.status).toBe('failed');
  });

  it('CLIENT-AUTHZ-REDIRECT-URI, reached-as: the request of the browser that reached the app under another name is that slice; a refused name is not tested', () => {
    const authz = (over: Record<string, unknown>): New => ({ type: 'authorize', hasClientId: true, hasRedirectUri: true, hasState: true, status: 200, secretIn: [], redirectUriParts: [], unencoded: [], ...over } as New);
    const mark = (label: string): New => ({ type: 'mark', label, clientId: null } as New);
    const events = recording(authz({}), mark('reached-as:other-name:start'), authz({ redirectUriParts: ['host'] }), mark('reached-as:other-name:end'));
    const hostBuilt = judged(events, 'CLIENT-AUTHZ-REDIRECT-URI', { reachedAs: { ran: true, name: 'localhost:3000' } });
    expect([slice(hostBuilt, 'reached-as', 'other-name')?.status, slice(hostBuilt, 'reached-as', 'configured')?.status]).toEqual(['failed', 'passed']);
    // The browser met the mock's refusal of that redirect_uri, so the probe stopped: the request between its marks is still that slice's.
    const stopped = judged(events, 'CLIENT-AUTHZ-REDIRECT-URI', { reachedAs: { ran: false, why: 'the authorization endpoint answered 400' } });
    expect([slice(stopped, 'reached-as', 'other-name')?.status, slice(stopped, 'reached-as', 'configured')?.status]).toEqual(['failed', 'passed']);
    const refused = judged(recording(authz({})), 'CLIENT-AUTHZ-REDIRECT-URI', { reachedAs: { ran: false, why: 'the application answered 421 to its connect URL reached as localhost:3000' } });
    expect(refused.status).toBe('passed');
    expect(slice(refused, 'reached-as', 'other-name')).toEqual(expect.objectContaining({ status: 'not-tested', reason: expect.stringContaining('421') }));
  });

  it('CLIENT-REAUTHORIZE-ON-401 and CLIENT-ADOPT-NEW-ACCESS-TOKEN: the slice is the endpoint that answered, not the call that came after', () => {
    const refused = recording(api({ method: 'DELETE', route: '/webhook/user', status: 401, accessFp: 'a0' }), api({ route: '/users/locks/mine', accessFp: 'a0' }));
    const reauth = judged(refused, 'CLIENT-REAUTHORIZE-ON-401');
    expect(slice(reauth, 'endpoint', 'DELETE /webhook/user')?.status).toBe('failed');
    expect(slice(reauth, 'endpoint', 'GET /users/locks/mine')?.status).toBe('not-tested');
    const kept = recording(api({ route: '/users/me', accessFp: 'a0', rotatedFp: 'a1' }), api({ route: '/users/locks/mine', accessFp: 'a0' }));
    expect(slice(judged(kept, 'CLIENT-ADOPT-NEW-ACCESS-TOKEN'), 'endpoint', 'GET /users/me')?.status).toBe('failed');
  });

  it('the secret: a Basic header on an API call fails request-kind=api', () => {
    const j = judged(recording(api({ secretIn: ['header:authorization (Basic)'] })), 'CLIENT-SECRET-ONLY-IN-FORM');
    expect(slice(j, 'request-kind', 'api')?.status).toBe('failed');
  });
});
