/**
 * The freedom switches of the mock (mock/freedoms.ts): each legal alternative the
 * catalog declares changes the one behaviour it names, and the default stays the
 * mock's own choice.
 */
import { describe, expect, it } from 'vitest';
import { registrationBody, startApiApp } from '../support/api-app.js';
import { control, tokenRequest, withMock } from '../support/mock.js';

describe('freedoms of the token endpoint', () => {
  it('MISSING-PARAMETER-REFUSAL: a code or refresh grant request without its parameter gets 302 /error by default, 400 invalid_request when chosen; never a token', async () => {
    for (const [freedoms, status] of [[[], 302], [['MISSING-PARAMETER-REFUSAL=invalid-request'], 400]] as const) {
      await withMock({ freedoms }, async (mock) => {
        for (const grant of ['authorization_code', 'refresh_token']) {
          const res = await tokenRequest(mock, { grant_type: grant });
          expect(res.status, `${grant} ${freedoms.join()}`).toBe(status);
          if (status === 400) expect(res.json.error).toBe('invalid_request');
          else expect(res.location).toMatch(/\/error(\?|$)/);
          expect(res.json?.access_token).toBeUndefined();
        }
      });
    }
  });

  it('CC-REFUSAL-ANSWER: the refused client_credentials grant answers 403 when chosen', async () => {
    await withMock({ freedoms: ['CC-REFUSAL-ANSWER=forbidden-403'] }, async (mock) => {
      const res = await tokenRequest(mock, { grant_type: 'client_credentials' });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('unauthorized_client');
      const on = await control(mock, 'POST', '/client-credentials', { clientId: mock.profile.clientId, enabled: true });
      expect(on.statusCode).toBe(204);
      expect((await tokenRequest(mock, { grant_type: 'client_credentials' })).status).toBe(200);
    });
  });

  it('an unknown freedom or alternative is refused at start', async () => {
    await expect(withMock({ freedoms: ['NO-SUCH-FREEDOM=x'] }, async () => {})).rejects.toThrow(/unknown freedom/);
  });
});

describe('freedoms of the API and the events', () => {
  it('WEBHOOK-ENDPOINT-ANSWERS and API-RESPONSE-BODIES: 202 with no body on the webhook endpoints, text/plain on the two GETs', async () => {
    const app = await startApiApp({ freedoms: ['WEBHOOK-ENDPOINT-ANSWERS=accepted-202', 'API-RESPONSE-BODIES=plain-text'] });
    try {
      const token = await app.tokenFor(0);
      const lockId = app.ctx.world.locks[0]!.lockId;
      const registered = await app.call('POST', `/webhook/${lockId}`, { token, body: registrationBody(app, 'http://127.0.0.1:9/hook') });
      expect([registered.status, registered.text]).toEqual([202, '']);
      const deleted = await app.call('DELETE', `/webhook/${lockId}/${app.ctx.credentials.clientId}`, { token });
      expect([deleted.status, deleted.text]).toEqual([202, '']);
      for (const path of ['/users/me', '/users/locks/mine']) {
        const res = await app.call('GET', path, { token });
        expect([res.status, res.text], path).toEqual([200, 'ok']);
      }
    } finally {
      await app.close();
    }
  });

  it('LOCK-NAME-BLANKS: a new name is stored without its outer blanks when chosen, as given by default', async () => {
    for (const [freedoms, stored] of [[[], '  Shed  '], [['LOCK-NAME-BLANKS=trimmed'], 'Shed']] as const) {
      const app = await startApiApp({ freedoms: [...freedoms] });
      try {
        const lock = app.ctx.world.locks[0]!;
        await app.services.events.emit({ kind: 'lock_name_changed', lockId: lock.lockId, userId: app.ctx.world.users[0]!.userId, value: '  Shed  ' });
        expect(lock.name).toBe(stored);
      } finally {
        await app.close();
      }
    }
  });
});
