/**
 * The copy-paste shell examples of the landing page: one script in steps, each
 * runnable after the ones before it. Secrets are never written into the page:
 * the client secret, API key and control token are read from the profile file
 * `npm run mock` writes (.lockconf/mock-target.json). test/mock/landing-page.test.ts
 * runs the whole script against a mock, so the examples cannot go stale.
 */
import type { TargetProfile } from '../../harness/contracts.js';
import { commandLine } from '../commands.js';

export interface ExampleStep {
  title: string;
  /** What the step shows, in a sentence. */
  note: string;
  script: string;
  /** Needs the control protocol (left out when the mock runs without it). */
  control?: boolean;
}

export interface ExampleInputs {
  profile: TargetProfile;
  /** The mock's own address (http://127.0.0.1:4010). */
  url: string;
  userId: string;
  lockId: string;
  /** The demo redirect URI the mock always registers ({url}/callback). */
  redirectUri: string;
  /** How the page names `lockconf mock` (`npm run mock` by default). */
  mockCommand?: string;
}

/** Reads one field of the JSON on stdin: `… | json access_token`. */
const JSON_FIELD = `json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[process.argv[1]] ?? ""))' "$1"; }`;

function sq(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function exampleSteps(inputs: ExampleInputs): ExampleStep[] {
  const { profile, url, userId, lockId, redirectUri } = inputs;
  const authorize = new URL(`${profile.authUrl}/authorization`);
  authorize.searchParams.set('client_id', profile.clientId);
  authorize.searchParams.set('redirect_uri', redirectUri);
  authorize.searchParams.set('state', 'from-curl');
  const consentBody = JSON.stringify({ authorizationUrl: authorize.toString(), userId, decision: 'approve' });
  const registration = `{"url":"'"$RECEIVER"'","method":"POST","clientID":"'"$CLIENT_ID"'","header":"x-my-app","token":"my-app-token","notificationTypes":["operation"]}`;
  return [
    {
      title: 'Set up the shell',
      note: `The addresses, and the secrets read from the profile file ${inputs.mockCommand ?? commandLine('npm', 'mock')} wrote (they are never shown on this page). json reads one field of a JSON answer.`,
      script: [
        `MOCK=${sq(url)}`,
        `PROFILE=\${PROFILE:-.lockconf/mock-target.json}`,
        `CLIENT_ID=${sq(profile.clientId)}`,
        `CLIENT_SECRET=$(node -p "require(require('path').resolve('$PROFILE')).clientSecret")`,
        `API_KEY=$(node -p "require(require('path').resolve('$PROFILE')).apiKey")`,
        `CONTROL_TOKEN=$(node -p "require(require('path').resolve('$PROFILE')).controlToken ?? ''")`,
        `USER_ID=${sq(userId)}`,
        `LOCK_ID=${sq(lockId)}`,
        JSON_FIELD,
      ].join('\n'),
    },
    {
      title: 'Get an authorization code without a browser (control protocol)',
      note: 'POST /_control/consent acts as the user at the sign-in, SMS and consent pages and answers the Location the browser would be sent to.',
      control: true,
      script: [
        `LOCATION=$(curl -sS "$MOCK/_control/consent" -H "x-control-token: $CONTROL_TOKEN" -H 'content-type: application/json' \\`,
        `  -d ${sq(consentBody)} | json location)`,
        `CODE=$(node -p "new URL(process.argv[1]).searchParams.get('code')" "$LOCATION")`,
      ].join('\n'),
    },
    {
      title: 'Exchange the code for tokens',
      note: 'POST {auth_url}/access_token with a form body; client_id and client_secret go in the body, never in an Authorization header.',
      script: [
        `TOKENS=$(curl -sS "$MOCK/oauth/access_token" -d grant_type=authorization_code -d "client_id=$CLIENT_ID" \\`,
        `  --data-urlencode "client_secret=$CLIENT_SECRET" --data-urlencode "code=$CODE")`,
        `ACCESS_TOKEN=$(echo "$TOKENS" | json access_token)`,
        `REFRESH_TOKEN=$(echo "$TOKENS" | json refresh_token)`,
      ].join('\n'),
    },
    {
      title: 'Call the API',
      note: 'x-api-key and x-access-token on every call; every 2xx answer carries a new x-access-token (-i shows it).',
      script: [
        `curl -sS -i "$MOCK/api/users/me" -H "x-api-key: $API_KEY" -H "x-access-token: $ACCESS_TOKEN" -H 'content-type: application/json'`,
        `curl -sS "$MOCK/api/users/locks/mine" -H "x-api-key: $API_KEY" -H "x-access-token: $ACCESS_TOKEN" -H 'content-type: application/json'`,
      ].join('\n'),
    },
    {
      title: 'Refresh the tokens',
      note: 'A refresh token is single use: store the new one the answer carries.',
      script: [
        `TOKENS=$(curl -sS "$MOCK/oauth/access_token" -d grant_type=refresh_token -d "client_id=$CLIENT_ID" \\`,
        `  --data-urlencode "client_secret=$CLIENT_SECRET" --data-urlencode "refresh_token=$REFRESH_TOKEN")`,
        `ACCESS_TOKEN=$(echo "$TOKENS" | json access_token)`,
        `REFRESH_TOKEN=$(echo "$TOKENS" | json refresh_token)`,
      ].join('\n'),
    },
    {
      title: 'Register a webhook and trigger a delivery',
      note: 'Start a receiver first (the one-liner prints what arrives), register it for the lock, then make a status check: the mock POSTs a signed status event to it. Its X-Signature is t=<the mock\'s clock, in milliseconds since the epoch>,v=<hex HMAC-SHA256 of t.body>. The deliveries page shows the attempt.',
      script: [
        `RECEIVER=\${RECEIVER:-http://127.0.0.1:9000/hooks}`,
        `# in another terminal: node -e 'require("http").createServer((q,s)=>{let b="";q.on("data",d=>b+=d).on("end",()=>{console.log(q.headers["x-signature"],b);s.end()})}).listen(9000,"127.0.0.1")'`,
        `curl -sS -X POST "$MOCK/api/webhook/$LOCK_ID" -H "x-api-key: $API_KEY" -H "x-access-token: $ACCESS_TOKEN" -H 'content-type: application/json' \\`,
        `  -d '${registration}'`,
        `curl -sS -X PUT "$MOCK/api/remoteoperate/$LOCK_ID/status" -H "x-api-key: $API_KEY" -H "x-access-token: $ACCESS_TOKEN" -H 'content-type: application/json'`,
      ].join('\n'),
    },
    {
      title: 'Drive the mock (control protocol)',
      note: 'Make the lock emit an event, move the mock\'s clock a day forward, read the fixtures, then put the clock back to real time: a receiver that checks t (within minutes of its own clock) refuses every delivery signed a day ahead. Every call carries x-control-token.',
      control: true,
      script: [
        `curl -sS "$MOCK/_control/events" -H "x-control-token: $CONTROL_TOKEN" -H 'content-type: application/json' \\`,
        `  -d '{"kind":"operation.app","lockId":"'"$LOCK_ID"'","userId":"'"$USER_ID"'","value":"unlock"}'`,
        `curl -sS "$MOCK/_control/clock" -H "x-control-token: $CONTROL_TOKEN" -H 'content-type: application/json' -d '{"advanceMs":86400000}'`,
        `curl -sS "$MOCK/_control/fixtures" -H "x-control-token: $CONTROL_TOKEN"`,
        `curl -sS "$MOCK/_control/clock" -H "x-control-token: $CONTROL_TOKEN" -H 'content-type: application/json' -d '{"reset":true}'`,
      ].join('\n'),
    },
    {
      title: 'Clean up',
      note: 'Delete the registration; POST /_control/reset drops every token, code and registration at once.',
      script: [
        `curl -sS -X DELETE "$MOCK/api/webhook/$LOCK_ID/$CLIENT_ID" -H "x-api-key: $API_KEY" -H "x-access-token: $ACCESS_TOKEN" -H 'content-type: application/json'`,
      ].join('\n'),
    },
  ];
}
