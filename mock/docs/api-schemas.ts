/**
 * Route schemas of the API ({base_url}, the mock's /api): documentation for
 * GET /docs. What the spec leaves "not shown" (response bodies, the status
 * check's method) is described as the mock answers it, and said to be the mock's choice.
 */
import { LOCK_GROUPS, USER_GROUPS } from '../webhooks/groups.js';
import { lockRegistrationSchema, userRegistrationSchema } from '../webhooks/registration-schema.js';
import { errorResponse, fromZod, jsonResponse, lockId, uuid, type JsonSchema } from './common-schemas.js';

export const API_SECURITY = [{ apiKey: [], accessToken: [] }];

const rotated = {
  'x-access-token': { type: 'string', description: 'A new access token (a JWT) for the same user, valid a little longer. Every 2xx answer carries one.' },
};

/** A 2xx answer of the API: JSON, with the rotated access token. */
function ok(description: string, schema: JsonSchema): JsonSchema {
  return { ...jsonResponse(description, schema), headers: rotated };
}

const authErrors = {
  401: errorResponse('x-api-key missing or wrong (invalid_api_key), or x-access-token missing, invalid or expired (invalid_token): the user must authorize again.'),
};

const lockParams = (name: 'lockId' | 'lockID'): JsonSchema => ({
  type: 'object',
  required: [name],
  properties: { [name]: { ...lockId, description: 'A lock the caller is a member of.' } },
});

const userProfile: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      description: 'A user token: the user\'s profile.',
      required: ['userId', 'firstName', 'lastName', 'email', 'phoneNo'],
      properties: { userId: uuid, firstName: { type: 'string' }, lastName: { type: 'string' }, email: { type: 'string' }, phoneNo: { type: 'string' } },
    },
    {
      type: 'object',
      description: 'A client_credentials token: the application\'s own account.',
      required: ['userId', 'clientId', 'accountType'],
      properties: { userId: { type: 'null' }, clientId: { type: 'string' }, accountType: { const: 'application' } },
    },
  ],
};

const lockSummary: JsonSchema = {
  type: 'object',
  required: ['lockId', 'name', 'state', 'accessLevel', 'keypad', 'doorSensor', 'builtInKeypad'],
  properties: {
    lockId,
    name: { type: 'string' },
    state: { enum: ['lock', 'unlock', 'unlatch'] },
    accessLevel: { enum: ['user', 'superuser'], description: 'user = guest, superuser = owner.' },
    keypad: { type: 'boolean' },
    doorSensor: { type: 'boolean' },
    builtInKeypad: { type: 'boolean' },
  },
};

function registrationBody(schema: typeof lockRegistrationSchema, groups: readonly string[], example: JsonSchema): JsonSchema {
  const base = fromZod(schema) as { properties: Record<string, JsonSchema> };
  return {
    ...base,
    properties: {
      ...base.properties,
      url: { type: 'string', format: 'uri', maxLength: 2048, description: 'Where deliveries are POSTed (http or https).' },
      method: { const: 'POST', description: 'The delivery method; the spec shows only POST.' },
      clientID: { type: 'string', description: 'The client_id of the credential making the call.' },
      header: { type: 'string', maxLength: 256, description: 'Name of the extra header every delivery carries (not one the delivery sets itself).' },
      token: { type: 'string', maxLength: 4096, description: 'Value of that header (printable ASCII). Never echoed back.' },
      notificationTypes: { type: 'array', minItems: 1, items: { enum: [...groups] }, description: 'Event groups wanted.' },
    },
    examples: [example],
  };
}

const exampleRegistration = (groups: string[]) => ({
  url: 'http://127.0.0.1:9000/hooks', method: 'POST', clientID: 'client-0123abcd', header: 'x-my-app', token: 'my-app-token', notificationTypes: groups,
});

const registrationAnswer = (owner: 'lockId' | 'userId'): JsonSchema => ({
  type: 'object',
  required: [owner, 'clientID', 'url', 'method', 'header', 'notificationTypes'],
  properties: {
    [owner]: owner === 'lockId' ? lockId : { anyOf: [uuid, { type: 'null' }] },
    clientID: { type: 'string' }, url: { type: 'string' }, method: { const: 'POST' }, header: { type: 'string' },
    notificationTypes: { type: 'array', items: { type: 'string' } },
  },
  description: 'The registration as stored, without the token.',
});

const registrationErrors = {
  ...authErrors,
  400: errorResponse('The body is not valid JSON (invalid_json).'),
  404: errorResponse('No such lock among the caller\'s locks (lock_not_found).'),
  415: errorResponse('A content type other than application/json.'),
  422: errorResponse('The body is not a registration: the field at fault is named (invalid_registration).'),
  429: errorResponse('The mock holds no more registrations (too_many_registrations).'),
};

const tags = (tag: string) => ({ tags: [tag], security: API_SECURITY });

export const API_SCHEMAS = {
  usersMe: {
    ...tags('API'),
    summary: 'The caller\'s profile',
    description: 'A cheap call to verify a new access token (spec: Other endpoints named). The body is the mock\'s choice: the spec does not show it.',
    response: { 200: ok('The caller.', userProfile), ...authErrors },
  },
  locksMine: {
    ...tags('API'),
    summary: 'The caller\'s locks',
    description: 'The locks the caller is a member of, keyed by lock ID. The body is the mock\'s choice: the spec does not show it.',
    response: { 200: ok('Lock ID → lock.', { type: 'object', additionalProperties: lockSummary }), ...authErrors },
  },
  statusCheck: {
    ...tags('API'),
    summary: 'Status check of a lock',
    description: 'Sends a status webhook (EventType status, Event = the lock\'s state now) to every listener of the lock. The spec does not show method, request or response: PUT and this answer are the mock\'s choice (the profile\'s statusCheck names them).',
    params: lockParams('lockId'),
    response: {
      200: ok('The lock\'s state.', { type: 'object', required: ['lockId', 'state'], properties: { lockId, state: { enum: ['lock', 'unlock', 'unlatch'] } } }),
      ...authErrors,
      404: errorResponse('No such lock among the caller\'s locks (lock_not_found).'),
    },
  },
  registerLock: {
    ...tags('Webhooks'),
    summary: 'Register a lock webhook',
    description: 'One registration per lock per user: registering again overwrites. Lock webhooks also carry keypad events. Answers are the mock\'s choice: the spec does not show them.',
    params: lockParams('lockID'),
    body: registrationBody(lockRegistrationSchema, LOCK_GROUPS, exampleRegistration(['operation', 'battery'])),
    response: { 200: ok('Registered (or overwritten).', registrationAnswer('lockId')), ...registrationErrors },
  },
  registerUser: {
    ...tags('Webhooks'),
    summary: 'Register the user webhook',
    description: 'One registration per user: registering again overwrites.',
    body: registrationBody(userRegistrationSchema, USER_GROUPS, exampleRegistration(['lockmembership'])),
    response: { 200: ok('Registered (or overwritten).', registrationAnswer('userId')), ...registrationErrors },
  },
  deleteLock: {
    ...tags('Webhooks'),
    summary: 'Delete a lock webhook',
    params: {
      type: 'object',
      required: ['lockID', 'clientID'],
      properties: { lockID: lockId, clientID: { type: 'string', description: 'The client_id the registration was made with.' } },
    },
    response: {
      200: ok('Deleted.', { type: 'object', required: ['deleted', 'lockId', 'clientID'], properties: { deleted: { const: true }, lockId, clientID: { type: 'string' } } }),
      ...authErrors,
      404: errorResponse('No such lock (lock_not_found), or no registration to delete (webhook_not_found).'),
    },
  },
  deleteUser: {
    ...tags('Webhooks'),
    summary: 'Delete the user webhook',
    response: {
      200: ok('Deleted.', { type: 'object', required: ['deleted', 'userId'], properties: { deleted: { const: true }, userId: { anyOf: [uuid, { type: 'null' }] } } }),
      ...authErrors,
      404: errorResponse('No registration to delete (webhook_not_found).'),
    },
  },
} as const;
