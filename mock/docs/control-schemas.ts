/**
 * Route schemas of the control protocol (the mock's /_control): documentation
 * for GET /docs. Request bodies come from the zod schemas the routes validate
 * with (mock/control/schemas.ts), so the description cannot drift from the checks.
 */
import { EVENT_KINDS } from '../events/kinds.js';
import { ClientCredentialsBody, ClockBody, ConsentBody, EventBody, LeaseBody, RevokeBody } from '../control/schemas.js';
import { emptyResponse, errorBody, errorResponse, fromZod, jsonResponse, lockId, uuid, type JsonSchema } from './common-schemas.js';

export const CONTROL_SECURITY = [{ controlToken: [] }];

const base = { tags: ['Control protocol'], security: CONTROL_SECURITY };
const unauthorized = { 401: errorResponse('x-control-token missing or wrong.') };
const badBody = { 400: errorResponse('The body is not valid JSON or not the expected shape (invalid_json, invalid_body); the message names the field.') };

const fixtures: JsonSchema = {
  type: 'object',
  required: ['users', 'locks'],
  properties: {
    users: {
      type: 'array',
      items: {
        type: 'object',
        required: ['userId', 'firstName', 'lastName', 'email', 'phoneNo'],
        properties: { userId: uuid, firstName: { type: 'string' }, lastName: { type: 'string' }, email: { type: 'string' }, phoneNo: { type: 'string' } },
      },
    },
    locks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['lockId', 'name', 'ownerUserId', 'keypad', 'doorSensor', 'builtInKeypad', 'bridgeId'],
        properties: {
          lockId, name: { type: 'string' }, ownerUserId: uuid, keypad: { type: 'boolean' }, doorSensor: { type: 'boolean' },
          builtInKeypad: { type: 'boolean' }, bridgeId: { type: 'string' },
          guestUserIds: { type: 'array', items: uuid, description: 'Users with guest access to the lock (lockconf extension).' },
        },
      },
    },
    deliveryTimeoutMs: { type: 'integer', description: 'Optional: how long the service waits for a webhook receiver\'s answer before it gives up, in ms.' },
    resets: { type: 'integer', minimum: 0, description: 'Optional (lockconf extension): POST /reset calls since the service started; a run compares it with its own resets to see another run.' },
    developmentServer: { type: 'boolean', description: 'Optional (lockconf extension): people use this target by hand (lockconf mock); a run warns that its resets wipe their registrations and tokens.' },
  },
  description: 'The first user owns the first two locks; the second is a guest on the first. Further sets follow (an owner of two locks, a guest on the first), so tests can run side by side.',
};

const now = jsonResponse('The mock\'s clock.', { type: 'object', required: ['now'], properties: { now: { type: 'integer', description: 'Epoch milliseconds.' } } });

const leaseAnswer: JsonSchema = {
  type: 'object',
  required: ['runId', 'expiresAt'],
  properties: { runId: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } },
};
const leaseHeld: JsonSchema = {
  type: 'object',
  required: ['error', 'message', 'heldBy', 'expiresAt'],
  properties: { ...(errorBody.properties as Record<string, JsonSchema>), heldBy: { type: 'string', description: 'The run ID of the holder.' }, expiresAt: { type: 'string', format: 'date-time' } },
};

export const CONTROL_SCHEMAS = {
  fixtures: { ...base, summary: 'The users and locks provisioned for a run', response: { 200: jsonResponse('Users and locks.', fixtures), ...unauthorized } },
  consent: {
    ...base,
    summary: 'Act as the user at sign-in, SMS and consent',
    description: 'For an authorization request the client built (GET {auth_url}/authorization?…): answers the Location the browser would be sent to.',
    body: fromZod(ConsentBody, { examples: [{ authorizationUrl: 'http://127.0.0.1:4010/oauth/authorization?client_id=…&redirect_uri=…&state=xyz', userId: '5f0c…', decision: 'approve' }] }),
    response: {
      200: jsonResponse('The redirect.', { type: 'object', required: ['location'], properties: { location: { type: 'string', description: 'redirect_uri?code=…&state=… or ?error=access_denied&state=…' } } }),
      ...badBody,
      ...unauthorized,
      404: jsonResponse('Unknown user.', { ...errorBody, properties: { ...(errorBody.properties as object), location: { type: 'null' } } }),
      422: jsonResponse('An invalid authorization request (unknown client, unregistered redirect URI): the service refuses to redirect.', { ...errorBody, properties: { ...(errorBody.properties as object), location: { type: 'null' } } }),
    },
  },
  getClock: { ...base, summary: 'Read the clock', response: { 200: now, ...unauthorized } },
  postClock: {
    ...base,
    summary: 'Move the clock forward, or back to real time',
    description: 'Token expiry, refresh-token expiry, signature timestamps and event timestamps follow it.',
    body: fromZod(ClockBody, { examples: [{ advanceMs: 86_400_000 }, { reset: true }] }),
    response: { 200: now, ...badBody, ...unauthorized },
  },
  events: {
    ...base,
    summary: 'Make a lock or user emit an event',
    description: `Delivered to every matching webhook registration. Kinds: ${EVENT_KINDS.join(', ')}.`,
    body: fromZod(EventBody, { examples: [{ kind: 'operation.app', lockId: '3F2A9C0B5D7E41A6B8C9D0E1F2A3B4C5', value: 'unlock' }] }),
    response: {
      200: jsonResponse('Deliveries attempted.', { type: 'object', required: ['emitted', 'eventId'], properties: { emitted: { type: 'integer' }, eventId: { anyOf: [uuid, { type: 'null' }] } } }),
      ...badBody,
      ...unauthorized,
      404: errorResponse('Unknown lock or user.'),
      422: errorResponse('Unknown kind, or a value the kind does not take.'),
    },
  },
  revoke: {
    ...base,
    summary: 'Revoke a refresh token',
    body: fromZod(RevokeBody),
    response: { 204: emptyResponse('Revoked.'), ...badBody, ...unauthorized, 404: errorResponse('Unknown refresh token.') },
  },
  clientCredentials: {
    ...base,
    summary: 'Grant or withdraw the client_credentials grant',
    description: 'Off by default, as the spec says (the operator grants it per credential).',
    body: fromZod(ClientCredentialsBody, { examples: [{ clientId: 'client-0123abcd', enabled: true }] }),
    response: { 204: emptyResponse('Done.'), ...badBody, ...unauthorized, 404: errorResponse('Unknown client.') },
  },
  lease: {
    ...base,
    summary: 'Take or renew the run lease (lockconf extension)',
    description: 'One conformance run per target at a time: a run takes the lease before its first test, renews it (the same call) while it runs and gives it back at the end. A lease not renewed ends after ttlMs (real time, not the mock\'s clock).',
    body: fromZod(LeaseBody, { examples: [{ runId: 'lockconf-host-4242-1a2b3c', ttlMs: 60_000 }] }),
    response: {
      200: jsonResponse('The lease is this run\'s.', leaseAnswer),
      ...badBody,
      ...unauthorized,
      409: jsonResponse('Another run holds the lease.', leaseHeld),
    },
  },
  releaseLease: {
    ...base,
    summary: 'Give the run lease back (lockconf extension)',
    description: '204 when the run held it (or nobody did); 409 when another run holds it.',
    params: { type: 'object', required: ['runId'], properties: { runId: { type: 'string' } } },
    response: { 204: emptyResponse('Released.'), ...unauthorized, 409: jsonResponse('Another run holds the lease.', leaseHeld) },
  },
  reset: {
    ...base,
    summary: 'Drop every token, code and registration; restore the fixtures',
    description: 'The clock is left where it is.',
    response: { 204: emptyResponse('Reset.'), ...unauthorized },
  },
} as const;
