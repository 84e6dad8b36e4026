/**
 * The pages of the authorization step (spec: Authorization code flow step 2):
 * sign-in with e-mail and password, SMS code, the mock phone, consent.
 * The pages live side by side under the OAuth prefix (relative form actions).
 * Every form carries the pending request's ID and a CSRF token bound to it.
 */
import { html, page, type SafeHtml } from '../pages/layout.js';

/** Who asks for access, and what it may do (shown on the consent page). */
export const APPLICATION_NAME = 'Reference Client Application';
export const PERMISSIONS = [
  'See your name, e-mail address and phone number',
  'See your locks and whether they are locked',
  'Lock, unlock and unlatch your locks',
  'Be notified when your locks are used or change',
] as const;

interface FormContext {
  requestId: string;
  csrf: string;
  error?: string | null;
}

function hidden(form: FormContext): SafeHtml {
  return html`<input type="hidden" name="request" value="${form.requestId}"><input type="hidden" name="_csrf" value="${form.csrf}">`;
}

function errorBox(error: string | null | undefined): SafeHtml {
  return error ? html`<p class="error" role="alert">${error}</p>` : html``;
}

export function signInPage(form: FormContext & { email?: string }): string {
  return page('Sign in', html`<h1>Sign in</h1>
${errorBox(form.error)}
<p class="note">${APPLICATION_NAME} wants to use your account.</p>
<form method="post" action="sign-in">
${hidden(form)}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${form.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div>
</form>`);
}

export function smsPage(form: FormContext & { phoneHint: string }): string {
  return page('Verify by SMS', html`<h1>Check your phone</h1>
${errorBox(form.error)}
<p>We sent a six-digit code by SMS to the phone number ending in <strong>${form.phoneHint}</strong>.</p>
<form method="post" action="sms">
${hidden(form)}
<label for="code">SMS code</label>
<input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required>
<div class="actions"><button type="submit">Verify</button></div>
</form>
<p class="note">No phone at hand? <a href="phone?request=${encodeURIComponent(form.requestId)}" target="_blank" rel="noopener" id="mock-phone">Open the mock phone</a>.</p>`);
}

export function phonePage(message: { phoneNo: string; code: string | null }): string {
  const body = message.code
    ? html`<p>SMS to ${message.phoneNo}</p><p>Your Lock Access Service code is</p><p class="code" data-testid="sms-code">${message.code}</p>`
    : html`<p>SMS to ${message.phoneNo}</p><p>No code waiting.</p>`;
  return page('Mock phone', html`<h1>Mock phone</h1><div class="phone">${body}</div>`);
}

/** `hideRequester`, `hidePermissions`: the slice faults of OAUTH-CONSENT-SHOWS-REQUEST (the page leaves that out). */
export function consentPage(form: FormContext & { userName: string; hideRequester?: boolean; hidePermissions?: boolean }): string {
  const permissions = form.hidePermissions ? [] : PERMISSIONS;
  return page('Allow access?', html`<h1>Allow access?</h1>
<p><strong id="requester">${form.hideRequester ? '' : APPLICATION_NAME}</strong> asks to act on behalf of <strong>${form.userName}</strong>. It will be able to:</p>
<ul class="scopes" id="authorized">${permissions.map((p) => html`<li>${p}</li>`)}</ul>
<form method="post" action="consent">
${hidden(form)}
<div class="actions">
<button type="submit" name="decision" value="deny" class="secondary">Cancel</button>
<button type="submit" name="decision" value="approve">Approve</button>
</div>
</form>`);
}
