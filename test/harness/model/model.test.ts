/** The executable model of the spec on its own: its rules against the catalog, and what each operation may answer. */
import { describe, expect, test } from 'vitest';
import { requirement } from '../../../harness/catalog/index.js';
import {
  DAY, RULES, initialState, judge, observeApi, observeToken, predictApi, predictClientCredentials, predictRefresh, receivePair,
  receiveRotated, revoke, setPermission,
} from '../../../harness/model/index.js';

const T0 = Date.UTC(2026, 0, 1);

function session(expiresInSec = 10_368_000) {
  const m = initialState(T0, 2);
  const pair = receivePair(m, { cred: 0, account: 'user', source: 'authorization_code', expiresInSec });
  return { m, ...pair };
}

describe('Rules', () => {
  test('every rule names a requirement of the catalog', () => {
    for (const rule of Object.values(RULES)) expect(() => requirement(rule.id)).not.toThrow();
  });
});

describe('Refresh token (States and transitions)', () => {
  test('an issued token within the year must give a new pair', () => {
    const { m, refresh } = session();
    m.now += 30 * DAY;
    const p = predictRefresh(m, refresh, 0);
    expect(p.allowed).toEqual(['pair']);
    expect(judge(p, 'refused-400-oauth')?.rule.id).toBe('REFRESH-VALID-WITHIN-YEAR');
    expect(judge(p, 'pair-same-refresh')?.rule.id).toBe('REFRESH-NEW-PAIR');
  });
  test('a used token is refused with 400 and an OAuth body; any other refusal breaks the error body rule', () => {
    const { m, refresh } = session();
    refresh.status = 'used';
    const p = predictRefresh(m, refresh, 0);
    expect(judge(p, 'pair')?.rule.id).toBe('REFRESH-SINGLE-USE');
    expect(judge(p, 'refused-400-other')?.rule.id).toBe('REFRESH-ERROR-RESPONSE');
    expect(judge(p, 'refused-400-oauth')).toBeNull();
  });
  test('near the year mark either answer is allowed; past it, refusal', () => {
    const { m, refresh } = session();
    m.now += 365 * DAY;
    expect(predictRefresh(m, refresh, 0).allowed).toEqual(['pair', 'refused-400-oauth']);
    m.now += 2 * DAY;
    expect(judge(predictRefresh(m, refresh, 0), 'pair')?.rule.id).toBe('REFRESH-EXPIRED-AFTER-YEAR');
  });
  test('another credential may not redeem it; the status of the refusal is free', () => {
    const { m, refresh } = session();
    const p = predictRefresh(m, refresh, 1);
    expect(judge(p, 'refused-other-status')).toBeNull();
    expect(judge(p, 'pair')?.rule.id).toBe('REFRESH-OTHER-CLIENT');
  });
});

describe('Client credentials', () => {
  test('refused without permission (status not described), per credential, and after a withdrawal', () => {
    const m = initialState(T0, 2);
    expect(judge(predictClientCredentials(m, 0), 'refused-other-status')).toBeNull();
    setPermission(m, 1, true);
    expect(judge(predictClientCredentials(m, 0), 'pair')?.rule.id).toBe('TOKEN-CC-PER-CREDENTIAL');
    expect(predictClientCredentials(m, 1).allowed).toEqual(['pair']);
    setPermission(m, 1, false);
    expect(judge(predictClientCredentials(m, 1), 'pair')?.rule.id).toBe('TOKEN-CC-DISABLED-BY-DEFAULT');
  });
});

describe('Access token', () => {
  test('a superseded token stays valid: "New access tokens do not invalidate previous access tokens"', () => {
    const { m, access } = session();
    receiveRotated(m, access);
    m.now += DAY;
    expect(judge(predictApi(m, access), 'refused-401')?.rule.id).toBe('HEADERS-PREVIOUS-TOKEN-VALID');
  });
  test('a rotated token lives at least 24 hours and at least as long as the token presented', () => {
    const { m, access } = session(172_800);
    const rotated = receiveRotated(m, access);
    rotated.used = true;
    m.now += 36 * 3_600_000;
    expect(judge(predictApi(m, rotated), 'refused-401')?.rule.id).toBe('HEADERS-ROTATION-EXTENDS');
  });
  test('past expires_in the token must be refused with 401; a success must rotate', () => {
    const { m, access } = session(172_800);
    expect(judge(predictApi(m, access), 'accepted-unrotated')?.rule.id).toBe('HEADERS-ROTATION-ON-SUCCESS');
    m.now += 3 * DAY;
    expect(predictApi(m, access).allowed).toEqual(['refused-401']);
    expect(judge(predictApi(m, access, true), 'accepted-rotated')?.rule.id).toBe('HEADERS-INVALID-TOKEN-401');
  });
  test('after a revocation the session\'s access tokens may go either way (not described)', () => {
    const { m, access, refresh } = session();
    revoke(m, refresh);
    expect(predictApi(m, access).allowed).toEqual(['accepted-rotated', 'refused-401']);
  });
});

describe('Observations', () => {
  test('token answers and API answers are classed as the rules speak of them', () => {
    expect(observeToken({ status: 200, headers: {}, json: { access_token: 'a', refresh_token: 'r', expires_in: 5 } })).toBe('pair');
    expect(observeToken({ status: 200, headers: {}, json: { access_token: 'a', refresh_token: 'r', expires_in: 5 } }, 'r')).toBe('pair-same-refresh');
    expect(observeToken({ status: 200, headers: {}, json: { access_token: 'a', expires_in: '5' } })).toBe('token-misshapen');
    expect(observeToken({ status: 400, headers: {}, json: { error: 'invalid_grant' } })).toBe('refused-400-oauth');
    expect(observeToken({ status: 400, headers: {}, json: undefined })).toBe('refused-400-other');
    expect(observeToken({ status: 403, headers: {}, json: {} })).toBe('refused-other-status');
    expect(observeApi({ status: 200, headers: { 'x-access-token': 't' }, json: {} })).toBe('accepted-rotated');
    expect(observeApi({ status: 204, headers: {}, json: {} })).toBe('accepted-unrotated');
    expect(observeApi({ status: 401, headers: {}, json: {} })).toBe('refused-401');
  });
});
