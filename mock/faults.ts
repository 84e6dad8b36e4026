/**
 * The mock's fault catalog. A fault is a named switch that makes the mock break
 * exactly one rule of the spec, checked at the one place that rule is
 * implemented (`ctx.faults.has('name')`), never a copy of a handler.
 *
 * Each fault names the requirement it breaks; the self-verification kill matrix
 * runs the suites against the mock once per fault and expects that requirement
 * to be failed (MUST) or warned (SHOULD).
 */

import { parseSliceFault, sliceFaultProblem, type SliceBreakId } from './slice-faults.js';

export interface FaultDefinition {
  /** The requirement (harness/catalog/index.ts) this fault breaks. */
  requirement: string;
  /** What the mock does wrong when the fault is on. */
  description: string;
}

export const FAULTS = {
  // Authorization endpoint
  'state-truncated': { requirement: 'OAUTH-STATE-ECHO', description: 'The redirect carries only the first 64 characters of state.' },
  'denial-without-error': { requirement: 'OAUTH-DENIAL-ACCESS-DENIED', description: 'Cancellation redirects with error=server_error instead of error=access_denied.' },
  'denial-drops-state': { requirement: 'OAUTH-DENIAL-ACCESS-DENIED', description: 'Cancellation redirects with error=access_denied but without state.' },
  'state-unsampled-chars-dropped': { requirement: 'OAUTH-STATE-ECHO', description: 'On approval, state loses the printable ASCII characters no sample of the chars dimension holds (^ | ` { } \\ " < >): caught only by the chars domain (harness/catalog/slices/domains.ts).' },
  'denial-state-unsampled-chars-dropped': { requirement: 'OAUTH-DENIAL-ACCESS-DENIED', description: 'On cancellation, state loses the printable ASCII characters no sample of the chars dimension holds (^ | ` { } \\ " < >): caught only by the chars domain.' },
  'open-redirect': { requirement: 'OAUTH-REDIRECT-URI-REGISTERED', description: 'Any redirect_uri is accepted and redirected to, registered or not.' },
  'code-reusable': { requirement: 'OAUTH-CODE-SINGLE-USE', description: 'An authorization code can be exchanged any number of times.' },
  'authz-skips-sign-in': { requirement: 'OAUTH-SIGN-IN-STEP', description: 'GET /authorization redirects at once to redirect_uri with a code for the first user, with no sign-in.' },
  'authz-empty-page': { requirement: 'OAUTH-SIGN-IN-STEP', description: 'GET /authorization answers a valid authorization request with HTTP 200 and an empty body: no sign-in page (found by mutation testing: a sign-in page rendered empty passed).' },
  'authz-answers-error': { requirement: 'OAUTH-SIGN-IN-STEP', description: 'GET /authorization answers a valid authorization request with an HTTP 500 error page, no sign-in step (found by mutation testing: only a redirect to redirect_uri was checked).' },
  'approval-redirect-303': { requirement: 'OAUTH-AUTHZ-REDIRECT', description: 'Approval answers HTTP 303 instead of 302 (the Location is right).' },
  'denial-redirect-303': { requirement: 'OAUTH-DENIAL-ACCESS-DENIED', description: 'Cancellation answers HTTP 303 instead of 302 (the Location is right).' },
  'approval-drops-state': { requirement: 'OAUTH-CODE-ON-APPROVAL', description: 'Approval redirects with code but without state.' },
  'unknown-client-redirected': { requirement: 'OAUTH-UNKNOWN-CLIENT-NO-REDIRECT', description: 'An unknown client_id is accepted when redirect_uri is the registered one.' },
  'code-grant-no-refresh-token': { requirement: 'OAUTH-CODE-EXCHANGE', description: 'The authorization_code grant answers without refresh_token.' },
  'bogus-code-accepted': { requirement: 'OAUTH-CODE-INVALID-REFUSED', description: 'A code the mock never issued is exchanged for the first user\'s token.' },
  'code-replay-keeps-tokens': { requirement: 'OAUTH-CODE-REPLAY-REVOKES', description: 'A code exchanged a second time is refused, but the access tokens of its first exchange keep working (found by mutation testing).' },
  'code-never-expires': { requirement: 'OAUTH-CODE-EXPIRES', description: 'Authorization codes never expire.' },
  'code-redeemable-by-other-client': { requirement: 'OAUTH-CODE-OTHER-CLIENT', description: 'An authorization code is exchanged for a token by any registered client, not only the one it was issued to.' },
  'code-lives-an-hour': { requirement: 'OAUTH-CODE-LIFETIME', description: 'Authorization codes expire an hour after issue, not ten minutes.' },
  'code-grant-token-refused': { requirement: 'OAUTH-CODE-EXCHANGE', description: 'The access token of the authorization_code grant is refused by the API (found by mutation testing: the suites used tokens from the control protocol).' },
  'sign-in-any-password': { requirement: 'OAUTH-SIGN-IN-WRONG-PASSWORD', description: 'The sign-in page takes any password for an account\'s e-mail address.' },
  'new-sign-in-ends-others': { requirement: 'OAUTH-SIGN-IN-SCREENS', description: 'A new sign-in ends the sign-ins in progress from the same address: the earlier one, at its SMS step, can no longer finish.' },
  'consent-shows-nothing': { requirement: 'OAUTH-CONSENT-SHOWS-REQUEST', description: 'The consent page shows neither who is requesting access nor what is authorized.' },
  'sms-any-code': { requirement: 'OAUTH-SIGN-IN-WRONG-SMS', description: 'The SMS page takes any code: a wrong one leads to the consent page.' },
  'consent-at-sms-step': { requirement: 'OAUTH-SIGN-IN-SMS-NOT-SKIPPED', description: 'The consent form is taken while the SMS step is current: a sign-in approved right after the password, before the SMS code, issues a code.' },
  'new-code-voids-others': { requirement: 'OAUTH-CODE-EXCHANGE', description: 'Issuing an authorization code drops every code still outstanding (found by mutation testing: no test held two codes at once).' },

  // Token endpoint
  'basic-header-accepted': { requirement: 'TOKEN-BASIC-REJECTED', description: 'Client credentials in an Authorization: Basic header are accepted when the body lacks them.' },
  'basic-header-not-ignored': { requirement: 'TOKEN-BASIC-IGNORED', description: 'A bogus Authorization: Basic header makes an otherwise correct token request fail.' },
  'wrong-secret-accepted': { requirement: 'TOKEN-BODY-SECRET-CHECKED', description: 'client_secret in the body is not checked.' },
  'malformed-400': { requirement: 'TOKEN-MALFORMED-302-ERROR', description: 'A malformed token request gets a 400 JSON error instead of a 302 to /error.' },
  'wrong-method-404': { requirement: 'TOKEN-MALFORMED-302-ERROR', description: 'A token request with the wrong HTTP method (PUT, DELETE, PATCH) gets a 404 instead of a 302 to /error (found by mutation testing).' },
  'missing-parameter-token-issued': { requirement: 'TOKEN-REQUIRED-PARAMETER', description: 'A code or refresh grant request without its code or refresh_token is served: a token for the first user of the fixtures.' },
  'missing-parameter-plain-400': { requirement: 'TOKEN-MISSING-PARAMETER-ANSWER', description: 'A code or refresh grant request without its code or refresh_token gets a 400 with a plain-text body: neither the 302 to /error nor an OAuth 2.0 invalid_request error (the 400 invalid_request of RFC 6749 §5.2 is a legal alternative: freedom MISSING-PARAMETER-REFUSAL).' },
  'token-response-cacheable': { requirement: 'TOKEN-NO-STORE', description: 'The token response carries neither Cache-Control: no-store nor Pragma: no-cache (found by mutation testing).' },
  'form-values-not-decoded': { requirement: 'TOKEN-BODY-URL-DECODED', description: 'The token endpoint reads the form values as sent, without percent-decoding them (found by mutation testing).' },
  'expires-in-string': { requirement: 'TOKEN-RESPONSE-SHAPE', description: 'expires_in is sent as a string of digits, not an integer.' },
  'access-token-opaque': { requirement: 'TOKEN-ACCESS-TOKEN-JWT', description: 'access_token is an opaque random string, not a JWT.' },
  'client-id-unchecked': { requirement: 'TOKEN-CLIENT-ID-CHECKED', description: 'The token endpoint checks only client_secret: any client_id is taken for the registered one.' },
  'token-response-form-encoded': { requirement: 'TOKEN-RESPONSE-JSON', description: 'The token response is sent form-encoded (application/x-www-form-urlencoded), not as JSON.' },

  // Client credentials
  'cc-enabled-by-default': { requirement: 'TOKEN-CC-DISABLED-BY-DEFAULT', description: 'The client_credentials grant works without the operator\'s permission.' },
  'cc-no-refresh-token': { requirement: 'TOKEN-CC-ENABLED-WORKS', description: 'The client_credentials token response lacks refresh_token.' },
  'cc-permitted-at-start': { requirement: 'TOKEN-CC-DISABLED-BY-DEFAULT', description: 'The client_credentials permission is granted at start and after every reset (withdrawing it still works).' },
  'cc-token-refused': { requirement: 'TOKEN-CC-TOKEN-WORKS', description: 'The client_credentials access token is a well-formed JWT the API refuses.' },
  'cc-permission-shared': { requirement: 'TOKEN-CC-PER-CREDENTIAL', description: 'The client_credentials permission granted to one credential lets every credential use the grant.' },
  'cc-withdraw-ignored': { requirement: 'TOKEN-CC-DISABLED-BY-DEFAULT', description: 'Withdrawing the client_credentials permission has no effect: once granted, the grant works until the next reset (sequence-only: grant, withdraw, ask).' },
  'cc-refresh-token-dead': { requirement: 'TOKEN-CC-REFRESH-WORKS', description: 'The client_credentials refresh_token is never stored, so the refresh grant refuses it.' },

  // Refresh tokens
  'refresh-reusable': { requirement: 'REFRESH-SINGLE-USE', description: 'A used refresh token can be redeemed again.' },
  'refresh-no-new-token': { requirement: 'REFRESH-NEW-PAIR', description: 'The refresh grant returns the same refresh token it was given.' },
  'refresh-error-not-oauth': { requirement: 'REFRESH-ERROR-RESPONSE', description: 'A refused refresh token gets 400 with a text/plain body, not an OAuth 2.0 error object.' },
  'refresh-error-invalid-request': { requirement: 'REFRESH-ERROR-INVALID-GRANT', description: 'A refused refresh token gets error=invalid_request instead of invalid_grant.' },
  'refresh-unknown-accepted': { requirement: 'REFRESH-UNKNOWN-REFUSED', description: 'An unknown refresh token of the right shape is redeemed.' },
  'refresh-unknown-401': { requirement: 'REFRESH-UNKNOWN-ERROR-ANSWER', description: 'A refresh token the service never issued is refused with HTTP 401 (and an OAuth 2.0 error body), not 400; used, expired and revoked tokens still get 400.' },
  'refresh-never-expires': { requirement: 'REFRESH-EXPIRED-AFTER-YEAR', description: 'Refresh tokens never expire.' },
  'refresh-expires-early': { requirement: 'REFRESH-VALID-WITHIN-YEAR', description: 'Refresh tokens expire 30 days after issue.' },
  'refresh-redeemable-by-other-client': { requirement: 'REFRESH-OTHER-CLIENT', description: 'A refresh token is redeemed by any registered client, not only the one it was issued to.' },
  'refresh-revocation-ignored': { requirement: 'REFRESH-REVOKED', description: 'A revoked refresh token can still be redeemed.' },
  'refresh-access-token-dead': { requirement: 'REFRESH-NEW-ACCESS-TOKEN-WORKS', description: 'The access token returned by the refresh grant is refused by the API.' },
  // Sequence-only faults (issue 33): each shows only after a sequence (a month of clock time, many refreshes, a withdrawal, a second credential's refresh); exploration (suites/explore) is what aims at them.
  'refresh-forgotten-after-month': { requirement: 'REFRESH-SINGLE-USE', description: 'A used refresh token is forgotten 30 days after its use: redeemed again after that, it is accepted (sequence-only: a use, a month of clock time, a reuse).' },
  'refresh-stops-rotating': { requirement: 'REFRESH-NEW-PAIR', description: 'From the fourth refresh of a chain on, the refresh grant answers the refresh token it was given instead of a new one (sequence-only: a long refresh chain).' },
  'refresh-second-client-access-dead': { requirement: 'REFRESH-NEW-ACCESS-TOKEN-WORKS', description: 'The access token the refresh grant returns to the second credential of the fixtures is refused by the API (sequence-only: that credential\'s code, exchange, refresh, then a call).' },
  'refresh-second-client-locks-refused': { requirement: 'REFRESH-NEW-ACCESS-TOKEN-WORKS', description: 'The access token the refresh grant returns to the second credential of the fixtures is refused by GET /users/locks/mine (GET /users/me takes it; tokens rotated from it work everywhere) (sequence-only: that credential\'s code, exchange, refresh, then a call listing the locks).' },
  'refresh-same-access-token': { requirement: 'REFRESH-NEW-ACCESS-TOKEN', description: 'The refresh grant returns again the access token issued with the refresh token it redeems.' },

  // API headers
  'no-rotation-header': { requirement: 'HEADERS-ROTATION-ON-SUCCESS', description: 'Successful API responses of GET /users/locks/mine carry no x-access-token header.' },
  'rotated-token-invalid': { requirement: 'HEADERS-ROTATED-TOKEN-WORKS', description: 'The x-access-token header holds a token the API refuses.' },
  'rotation-not-extending': { requirement: 'HEADERS-ROTATION-EXTENDS', description: 'A rotated token expires at the same moment as the one presented.' },
  'rotation-revokes-previous': { requirement: 'HEADERS-PREVIOUS-TOKEN-VALID', description: 'Issuing a rotated token invalidates the token presented.' },
  'invalid-token-403': { requirement: 'HEADERS-INVALID-TOKEN-401', description: 'An invalid access token gets 403 instead of 401.' },
  'expired-token-accepted': { requirement: 'HEADERS-EXPIRED-TOKEN-401', description: 'An access token past its expiry is still accepted.' },
  'missing-token-400': { requirement: 'HEADERS-MISSING-TOKEN-401', description: 'A request without x-access-token gets 400 instead of 401.' },
  'access-token-ends-early': { requirement: 'TOKEN-ACCESS-LIFETIME-HONOURED', description: 'Every access token from the token endpoint stops working an hour before its expires_in has elapsed (expires_in unchanged).' },
  'short-access-token': { requirement: 'HEADERS-TOKEN-LIFETIME-24H', description: 'Access tokens are issued valid for one hour.' },
  'no-rotation-on-webhooks': { requirement: 'HEADERS-ROTATION-ON-SUCCESS', description: 'Successful answers of the four webhook endpoints carry no x-access-token header.' },
  'no-rotation-on-status-check': { requirement: 'HEADERS-ROTATION-ON-SUCCESS', description: 'Successful answers of the status check carry no x-access-token header.' },
  'rotated-token-invalid-on-webhooks': { requirement: 'HEADERS-ROTATED-TOKEN-WORKS', description: 'The x-access-token of the webhook endpoints\' answers is a token the API refuses.' },
  'rotated-token-opaque': { requirement: 'HEADERS-ROTATED-TOKEN-JWT', description: 'The x-access-token header holds an opaque random string (which the API accepts), not a JWT.' },
  'rotation-capped': { requirement: 'HEADERS-NEWEST-KEEPS-ACCESS', description: 'Rotated tokens never outlive the first token of the session by more than a day.' },
  'invalid-token-403-on-webhooks': { requirement: 'HEADERS-INVALID-TOKEN-401', description: 'An invalid access token gets 403 on the webhook endpoints and the status check (401 on /users/*).' },
  'rotated-token-short': { requirement: 'HEADERS-TOKEN-LIFETIME-24H', description: 'A rotated token is valid for at least one hour, not 24: near the presented token\'s expiry it lasts an hour.' },

  // Webhook registration
  'lock-register-appends': { requirement: 'WEBHOOK-LOCK-OVERWRITE', description: 'Registering again for the same lock and user adds a registration instead of replacing it.' },
  'lock-register-per-lock': { requirement: 'WEBHOOK-LOCK-PER-USER', description: 'A registration replaces every other user\'s registration on that lock.' },
  'lock-delete-ignored': { requirement: 'WEBHOOK-LOCK-DELETE', description: 'DELETE /webhook/:lockID/:clientID answers success but keeps the registration.' },
  'keypad-events-dropped': { requirement: 'WEBHOOK-KEYPAD-VIA-LOCK', description: 'Keypad events are not delivered to lock registrations.' },
  'user-register-appends': { requirement: 'WEBHOOK-USER-OVERWRITE', description: 'Registering the user webhook again adds a registration instead of replacing it.' },
  'user-delete-ignored': { requirement: 'WEBHOOK-USER-DELETE', description: 'DELETE /webhook/user answers success but keeps the registration.' },
  'filter-ignored': { requirement: 'WEBHOOK-NOTIFICATION-FILTER', description: 'notificationTypes is ignored: every registration receives every event.' },
  'lock-register-refused': { requirement: 'WEBHOOK-LOCK-REGISTER', description: 'A well-formed lock registration is refused with 400.' },
  'user-register-refused': { requirement: 'WEBHOOK-USER-REGISTER', description: 'A well-formed user registration is refused with 400.' },
  'lock-register-keeps-groups': { requirement: 'WEBHOOK-LOCK-OVERWRITE', description: 'Registering again keeps the first registration\'s notificationTypes besides the new ones.' },
  'lock-register-keeps-token': { requirement: 'WEBHOOK-LOCK-OVERWRITE', description: 'Registering again replaces url and groups but keeps the first header and token.' },
  'user-register-keeps-groups': { requirement: 'WEBHOOK-USER-OVERWRITE', description: 'Registering the user webhook again keeps the earlier registration\'s notificationTypes besides the new ones.' },
  // Sequence-only webhook faults (issue 33): each shows only after several steps on one registration slot; exploration aims at them.
  'lock-overwrite-header-stuck': { requirement: 'WEBHOOK-LOCK-OVERWRITE', description: 'From the second overwrite of a lock registration on, registering again keeps the header and token of the registration it replaces (sequence-only: a registration, two overwrites, an event).' },
  'lock-overwrite-groups-stuck': { requirement: 'WEBHOOK-LOCK-OVERWRITE', description: 'From the second overwrite of a lock registration on, registering again keeps the notificationTypes of the registration it replaces: events of a group only the new one names are not delivered (sequence-only: a registration, two overwrites changing the groups, an event of a newly named group).' },
  'user-bare-overwrite-keeps-header': { requirement: 'WEBHOOK-USER-OVERWRITE', description: 'An overwrite of the user registration that leaves out header and token keeps the replaced registration\'s: its deliveries carry the old header and token (sequence-only: a user registration with a header, an overwrite without, a user event).' },
  'lock-reregister-keeps-deleted-header': { requirement: 'WEBHOOK-LOCK-DELETE', description: 'A lock registration made after the same user deleted theirs on that lock is delivered with the deleted registration\'s header and token instead of its own (sequence-only: a registration with a header, its deletion, a new registration, an event).' },
  'lock-register-per-user': { requirement: 'WEBHOOK-LOCK-PER-LOCK', description: 'A lock registration replaces the same user\'s registrations on other locks.' },
  'operation-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-OPERATION', description: 'A registration naming operation but not every lock group receives none of that group\'s events.' },
  'operation-type-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-OPERATION-TYPE', description: 'A registration naming operation.type but not every lock group receives none of that group\'s events.' },
  'configuration-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-CONFIGURATION', description: 'A registration naming configuration but not every lock group receives none of that group\'s events.' },
  'battery-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-BATTERY', description: 'A registration naming battery but not every lock group receives none of that group\'s events.' },
  'systemstatus-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-SYSTEMSTATUS', description: 'A registration naming systemstatus but not every lock group receives none of that group\'s events.' },
  'accessmgmt-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-ACCESSMGMT', description: 'A registration naming accessmgmt but not every lock group receives none of that group\'s events.' },
  'lockmembership-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-LOCKMEMBERSHIP', description: 'A registration naming lockmembership but not every user group receives none of that group\'s events.' },
  'lifecycle-group-alone-ignored': { requirement: 'WEBHOOK-GROUP-LIFECYCLE', description: 'A registration naming lifecycle but not every user group receives none of that group\'s events.' },

  // Delivery
  'duplicate-delivery': { requirement: 'DELIVERY-ONE-POST', description: 'Every event is delivered twice.' },
  'wrong-content-type': { requirement: 'DELIVERY-CONTENT-TYPE', description: 'Deliveries carry Content-Type text/plain.' },
  'no-custom-header': { requirement: 'DELIVERY-CUSTOM-HEADER', description: 'The registration\'s header and token are not sent.' },
  'signature-missing': { requirement: 'DELIVERY-SIGNATURE-PRESENT', description: 'Deliveries carry no X-Signature header.' },
  'retry-on-error': { requirement: 'DELIVERY-NO-RETRY', description: 'A non-2xx answer is retried twice.' },
  'follow-redirects': { requirement: 'DELIVERY-NO-REDIRECT', description: 'A 302 answer is followed to its Location.' },
  'status-check-caller-only': { requirement: 'DELIVERY-STATUS-CHECK-FANOUT', description: 'The status event of a status check goes only to the caller\'s registration.' },
  'system-events-unsigned': { requirement: 'DELIVERY-SIGNATURE-PRESENT', description: 'Lock battery warning and lock clock deliveries carry no X-Signature (as the spec\'s own examples show them).' },
  'user-deliveries-text-plain': { requirement: 'DELIVERY-CONTENT-TYPE', description: 'User-webhook deliveries carry Content-Type text/plain.' },
  'retry-unanswered': { requirement: 'DELIVERY-NO-RETRY-UNANSWERED', description: 'A delivery whose connection failed (refused or reset) is attempted again once, 300 ms later.' },
  'retry-after-timeout': { requirement: 'DELIVERY-NO-RETRY-TIMEOUT', description: 'A delivery the mock gave up waiting for (its delivery timeout) is sent again once, 300 ms later.' },
  'status-check-only-on-change': { requirement: 'DELIVERY-STATUS-EVERY-CHECK', description: 'A status check sends a status event only when the lock\'s state changed since the last check.' },

  // Signature
  'signature-wrong-key': { requirement: 'SIGNATURE-VALID', description: 'The HMAC is keyed with the client secret instead of the API key.' },
  'signature-body-only': { requirement: 'SIGNATURE-VALID', description: 'The HMAC covers the body alone, without "t.".' },
  'signature-other-bytes': { requirement: 'SIGNATURE-VALID', description: 'The HMAC covers a re-serialised body (indented JSON), not the bytes sent.' },
  'signature-stale-timestamp': { requirement: 'SIGNATURE-TIMESTAMP-CURRENT', description: 'The signature timestamp is ten minutes behind the clock.' },
  'signature-semicolons': { requirement: 'SIGNATURE-FORMAT', description: 'X-Signature elements are separated by semicolons, not commas.' },

  // Event payloads
  'keypad-op-device-lock': { requirement: 'EVENT-OPERATION-KEYPAD', description: 'Keypad operations report Device=lock.' },
  'manual-marker-wrong': { requirement: 'EVENT-OPERATION-MANUAL', description: 'Manual unlock events carry User.UserID=manuallock.' },
  'door-marker-missing': { requirement: 'EVENT-DOOR-STATE', description: 'Door events carry the acting user\'s UserID instead of DoorStateChanged.' },
  'status-as-operation': { requirement: 'EVENT-STATUS-CHECK', description: 'Status check results are sent with EventType=operation.' },
  'lock-name-stale': { requirement: 'EVENT-LOCK-NAME-CHANGED', description: 'lock_name_changed carries the old lock name in Lock.Name.' },
  'battery-field-renamed': { requirement: 'EVENT-LOCK-BATTERY', description: 'lock_battery_alert carries warninglevel instead of warningLevel.' },
  'masterpin-pin-filled': { requirement: 'EVENT-MASTER-PIN', description: 'The master PIN event carries Pin {state, action} instead of an empty object.' },
  'bridge-lockid-string': { requirement: 'EVENT-BRIDGE', description: 'Bridge events carry LockID as a string, not an array.' },
  'usertype-missing': { requirement: 'EVENT-LOCK-USERTYPE-CHANGED', description: 'lock_usertype_changed on lock webhooks omits User.UserType.' },
  'user-event-no-eventid': { requirement: 'EVENT-USER-LOCK-USER-ADD', description: 'User-webhook events carry no EventID.' },
  'app-op-user-partial': { requirement: 'EVENT-OPERATION-APP', description: 'App operations carry a User object with UserID and names only (no PhoneNo, Email, imageInfo).' },
  'manual-unlatch-marker-wrong': { requirement: 'EVENT-OPERATION-MANUAL', description: 'Manual unlatch events carry User.UserID=manuallock (unlock is right).' },
  'status-state-stale': { requirement: 'EVENT-STATUS-CHECK-STATE', description: 'The status event always reports lock, whatever state the control protocol\'s operation events set.' },
  'battery-level-2day-wrong': { requirement: 'EVENT-LOCK-BATTERY', description: 'lock_state_battery_warning_2day is reported as lock_state_battery_warning_1week.' },
  'battery-userid-field-renamed': { requirement: 'EVENT-LOCK-BATTERY', description: 'lock_battery_alert carries UserID instead of the field userID (spelt in lower case).' },
  'clock-drift-ignored': { requirement: 'EVENT-LOCK-CLOCK-DRIFT', description: 'TimestampDrifted equals Timestamp: the drift the lock reported is lost.' },
  'pin-state-disable-as-enable': { requirement: 'EVENT-KEYPAD-PIN-MANAGED', description: 'A disabled PIN is reported with Pin.state=enable.' },
  'pin-action-not-intent': { requirement: 'EVENT-PIN-ACTION-INTENT', description: 'Pin.action is update instead of intent.' },
  'keypad-battery-critical-as-warning': { requirement: 'EVENT-KEYPAD-BATTERY', description: 'keypad_battery_critical is reported as keypad_battery_warning.' },
  'lock-user-add-no-lock': { requirement: 'EVENT-LOCK-USER-ADD', description: 'lock_user_add on lock webhooks carries no Lock object.' },
  'lock-user-remove-no-user': { requirement: 'EVENT-LOCK-USER-REMOVE', description: 'lock_user_remove on lock webhooks carries no User object.' },
  'accesstype-no-eventid': { requirement: 'EVENT-LOCK-ACCESSTYPE-CHANGED', description: 'lock_accesstype_changed on lock webhooks carries no EventID.' },
  'timestamps-in-seconds': { requirement: 'EVENT-TIMESTAMP-UNITS', description: 'Timestamp and timeStamp are epoch seconds.' },
  'timestamp-after-send': { requirement: 'EVENT-TIMESTAMP-ORDER', description: 'On operation events Timestamp is a minute later than timeStamp.' },
  'user-add-carries-usertype': { requirement: 'EVENT-USER-LOCK-USER-ADD', description: 'The user-webhook lock_user_add carries UserType.' },
  'user-remove-carries-accesstype': { requirement: 'EVENT-USER-LOCK-USER-REMOVE', description: 'The user-webhook lock_user_remove carries AccessType.' },
  'user-usertype-missing': { requirement: 'EVENT-USER-USERTYPE-CHANGED', description: 'The user-webhook lock_usertype_changed carries no UserType.' },
  'user-accesstype-always': { requirement: 'EVENT-USER-ACCESSTYPE-CHANGED', description: 'The user-webhook lock_accesstype_changed always carries AccessType rule_access_always.' },
} as const satisfies Record<string, FaultDefinition>;

export type FaultName = keyof typeof FAULTS;

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export function isFaultName(name: string): name is FaultName {
  return Object.prototype.hasOwnProperty.call(FAULTS, name);
}

/** The set of faults switched on in one mock instance: named faults and slice faults (slice-faults.ts). */
export class FaultSet {
  readonly #on: ReadonlySet<FaultName>;
  /** requirement → dim → values broken; empty when no slice fault is on (the hot path's one check). */
  readonly #slices: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;
  readonly #sliceNames: readonly string[];

  constructor(names: Iterable<string> = []) {
    const on = new Set<FaultName>();
    const slices = new Map<string, Map<string, Set<string>>>();
    const sliceNames: string[] = [];
    for (const name of names) {
      if (name.includes('@')) {
        const problem = sliceFaultProblem(name);
        if (problem) throw new Error(`unknown fault: ${problem}`);
        const { requirement, dim, value } = parseSliceFault(name)!;
        const dims = slices.get(requirement) ?? new Map<string, Set<string>>();
        slices.set(requirement, dims);
        dims.set(dim, (dims.get(dim) ?? new Set<string>()).add(value));
        sliceNames.push(name);
        continue;
      }
      if (!isFaultName(name)) {
        throw new Error(`unknown fault: ${name} (known: ${FAULT_NAMES.join(', ')}, or a slice fault ID@dim=value of mock/slice-faults.ts)`);
      }
      on.add(name);
    }
    this.#on = on;
    this.#slices = slices;
    this.#sliceNames = sliceNames;
  }

  has(name: FaultName): boolean {
    return this.#on.has(name);
  }

  /**
   * Is rule `requirement` broken here? `at` gives, per dimension, the slice this
   * request is in (a value, several values, or none): true when a slice fault of
   * that requirement names one of them. The one call at a rule's break point.
   */
  breaks(requirement: SliceBreakId, at: Readonly<Record<string, string | readonly string[] | null | undefined>>): boolean {
    if (this.#slices.size === 0) return false;
    const mine = this.#slices.get(requirement);
    if (!mine) return false;
    for (const [dim, value] of Object.entries(at)) {
      const broken = mine.get(dim);
      if (!broken || value === null || value === undefined) continue;
      if (typeof value === 'string' ? broken.has(value) : value.some((v) => broken.has(v))) return true;
    }
    return false;
  }

  /** Is any slice fault on? (State only slice faults need is kept only then.) */
  anySlice(): boolean {
    return this.#slices.size > 0;
  }

  /** Every fault switched on: named ones, then slice faults. */
  list(): string[] {
    return [...this.#on, ...this.#sliceNames];
  }
}
