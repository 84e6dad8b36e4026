/** Route schemas of the OAuth server ({auth_url}, the mock's /oauth): documentation for GET /docs. */
import { emptyResponse, htmlResponse, jsonResponse, type JsonSchema } from './common-schemas.js';

const FORM = ['application/x-www-form-urlencoded'];

const tokenResponse: JsonSchema = {
  type: 'object',
  required: ['access_token', 'expires_in', 'token_type', 'refresh_token'],
  properties: {
    access_token: { type: 'string', description: 'A JWT, sent as x-access-token on API calls.' },
    expires_in: { type: 'integer', description: 'Seconds until the access token expires (four months by default).' },
    token_type: { const: 'Bearer' },
    refresh_token: { type: 'string', description: 'Single use; valid for one year. client_credentials answers carry one too.' },
  },
  examples: [{ access_token: 'eyJhbGciOiJIUzI1NiJ9.…', expires_in: 10368000, token_type: 'Bearer', refresh_token: 'rt_…' }],
};

const oauthError: JsonSchema = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: { enum: ['invalid_client', 'invalid_request', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type'] },
    error_description: { type: 'string' },
    message: { type: 'string', description: 'The same text (for invalid_client: "secrets did not match").' },
  },
  examples: [{ error: 'invalid_grant', error_description: 'refresh token already used', message: 'refresh token already used' }],
};

const pageForm = (fields: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required: ['request', '_csrf', ...Object.keys(fields)],
  properties: {
    request: { type: 'string', description: 'The pending sign-in\'s ID (a hidden field of the page).' },
    _csrf: { type: 'string', description: 'The CSRF token of the page (with its cookie).' },
    ...fields,
  },
});

const pages = (summary: string, description: string, body?: JsonSchema): JsonSchema => ({
  tags: ['Sign-in pages'],
  summary,
  description,
  ...(body ? { consumes: FORM, body } : {}),
  response: { 200: htmlResponse('The next page.'), 400: htmlResponse('An error page (expired sign-in, incomplete form).') },
});

export const OAUTH_SCHEMAS = {
  authorization: {
    tags: ['OAuth'],
    summary: 'Start the authorization code flow',
    description: 'Opened in a browser. Shows the sign-in page; after e-mail and password, an SMS code and consent, the browser is sent (302) to redirect_uri with code and state, or with error=access_denied and state. An unknown client or unregistered redirect_uri gets an error page, never a redirect. Without a browser, POST /_control/consent plays the user.',
    querystring: {
      type: 'object',
      required: ['client_id', 'redirect_uri', 'state'],
      properties: {
        client_id: { type: 'string', description: 'The credential\'s client ID.' },
        redirect_uri: { type: 'string', description: 'A registered redirect URI, exactly.' },
        state: { type: 'string', maxLength: 2048, description: 'Returned unchanged at the end.' },
      },
    },
    response: { 200: htmlResponse('The sign-in page.'), 400: htmlResponse('An invalid authorization request: an error page, no redirect.') },
  },
  accessToken: {
    tags: ['OAuth'],
    summary: 'Token endpoint',
    description: 'A form body with client_id and client_secret (never an Authorization: Basic header: one carrying the credentials instead of the body is refused with "secrets did not match"; one beside them is ignored). A malformed request, or another HTTP method, is answered with a 302 to /error.',
    consumes: FORM,
    body: {
      type: 'object',
      required: ['client_id', 'client_secret', 'grant_type'],
      properties: {
        client_id: { type: 'string' },
        client_secret: { type: 'string' },
        grant_type: { enum: ['authorization_code', 'client_credentials', 'refresh_token'] },
        code: { type: 'string', description: 'grant_type=authorization_code.' },
        refresh_token: { type: 'string', description: 'grant_type=refresh_token: the current, unused refresh token.' },
        redirect_uri: { type: 'string', description: 'Optional; when given, must match the authorization request.' },
      },
    },
    response: {
      200: jsonResponse('Tokens.', tokenResponse),
      302: emptyResponse('A malformed request: Location /error.', { location: { type: 'string', const: '/error' } }),
      400: jsonResponse('Refused: wrong client credentials, a used/expired/revoked refresh token, a bad code, client_credentials not enabled.', oauthError),
    },
  },
  signIn: pages('Sign-in form', 'E-mail and password of a test user; answers the SMS page.', pageForm({ email: { type: 'string' }, password: { type: 'string' } })),
  sms: pages('SMS code form', 'The six-digit code sent to the user\'s phone (shown by the mock phone and in the mock\'s log); answers the consent page.', pageForm({ code: { type: 'string', pattern: '^[0-9]{6}$' } })),
  consent: {
    ...pages('Consent form', 'Approve or Cancel; answers a 302 to redirect_uri.', pageForm({ decision: { enum: ['approve', 'deny'] } })),
    response: { 302: emptyResponse('To redirect_uri with code and state, or error=access_denied and state.', { location: { type: 'string' } }), 400: htmlResponse('An error page.') },
  },
  phone: {
    tags: ['Sign-in pages'],
    summary: 'The mock phone',
    description: 'Shows the SMS code a pending sign-in sent (linked from the SMS page).',
    querystring: { type: 'object', required: ['request'], properties: { request: { type: 'string' } } },
    response: { 200: htmlResponse('The message.'), 404: htmlResponse('No message for this sign-in.') },
  },
} as const;
