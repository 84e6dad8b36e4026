/**
 * An application's OAuth client, graded by the mock (`npm run mock -- --grade`,
 * then `npm run conformance -- --client`): one test per CLIENT- rule, each judging
 * what the application sent (harness/client/judge.ts), including what it did when
 * the mock played the adversary (harness/client/probes.ts).
 */
import { describe } from 'vitest';
import { conformance } from '../../harness/client/conformance.js';

describe('Authorization code flow', () => {
  conformance('CLIENT-AUTHZ-REQUEST', 'authorization requests carry client_id, redirect_uri and state');
  conformance('CLIENT-AUTHZ-REDIRECT-URI', 'the redirect_uri is the registered one, in every component');
  conformance('CLIENT-AUTHZ-URL-ENCODED', 'the redirect_uri is sent URL-encoded');
  conformance('CLIENT-STATE-CHECKED', 'no redirect back whose state is not the one in progress is redeemed, after approval or cancellation');
  conformance('CLIENT-CANCELLATION-STATE-CHECKED', 'a cancellation whose state is not the one in progress does not end the sign-in');
  conformance('CLIENT-STATE-SESSION-BOUND', 'a state the application sent is accepted only from the browser it was sent to');
  conformance('CLIENT-STATE-ONE-USE', 'the state of a flow that ended is not accepted again');
  conformance('CLIENT-CODE-FROM-REDIRECT', 'only codes from a redirect are exchanged; none after access_denied');
  conformance('CLIENT-CODE-ONCE', 'no authorization code is exchanged twice');
});

describe('POST {auth_url}/access_token', () => {
  conformance('CLIENT-TOKEN-FORM-POST', 'token requests are form-encoded POSTs');
  conformance('CLIENT-TOKEN-BODY-FIELDS', 'client_id, client_secret and grant_type are in the form body');
  conformance('CLIENT-TOKEN-FIELD-ONCE', 'no field of a token request\'s form body is given twice');
  conformance('CLIENT-TOKEN-NO-BASIC', 'no Authorization: Basic header carries the credentials');
  conformance('CLIENT-SECRET-ONLY-IN-FORM', 'the client secret is sent only in token request bodies, never to the browser');
  conformance('CLIENT-API-KEY-NOT-TO-BROWSER', 'the API key is never sent to the browser');
});

describe('Refresh flow', () => {
  conformance('CLIENT-REFRESH-SINGLE-USE', 'a redeemed refresh token is never presented again');
  conformance('CLIENT-REFRESH-STORE-NEW', 'each refresh presents the latest refresh token issued');
  conformance('CLIENT-REFRESH-NO-RETRY', 'a refresh refused with 400 is not retried');
  conformance('CLIENT-REFRESH-IN-FLIGHT', 'two refreshes at once present no refresh token twice and leave the user signed in');
});

describe('Request headers for API calls', () => {
  conformance('CLIENT-API-KEY-HEADER', 'every API call carries x-api-key');
  conformance('CLIENT-API-ACCESS-TOKEN-HEADER', 'every API call carries x-access-token');
  conformance('CLIENT-API-CONTENT-TYPE', 'every API call carries content-type: application/json');
  conformance('CLIENT-API-HEADERS-NOT-ENCODED', 'header values are not URL-encoded');
  conformance('CLIENT-ADOPT-NEW-ACCESS-TOKEN', 'the newest x-access-token is adopted');
  conformance('CLIENT-REAUTHORIZE-ON-401', 'after a 401 the user authorizes again');
});

describe('Webhook registration', () => {
  conformance('CLIENT-WEBHOOK-CLIENT-ID', 'registrations and deletions name the application\'s own clientID');
  conformance('CLIENT-WEBHOOK-GROUPS', 'registrations ask only for groups of their kind');
  conformance('CLIENT-DELETE-NO-BODY', 'deletions carry no body');
  conformance('CLIENT-WEBHOOK-FIELD-TYPES', 'registration fields have the types the spec gives');
  conformance('CLIENT-WEBHOOK-ENDPOINT', 'webhook calls use the methods and paths the spec names');
});
