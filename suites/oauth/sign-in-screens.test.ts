/**
 * The sign-in screens (spec: Authorization code flow, item 2), driven with
 * Chromium as a person would: "The user signs in with a previously verified e-mail
 * address and password, then verifies by an SMS text message to a previously
 * verified mobile phone, then sees who is requesting access and what is
 * authorized, and approves or cancels."
 *
 * Every other suite lets the control protocol's POST /consent stand in for these
 * screens; this one drives them (harness/sandbox/sign-in-session.ts), with the test
 * account and SMS codes of the profile's login section or of the control extension
 * (suites/support/sign-in-source.ts). One browser for the run, started before the
 * tests need it (harness/sandbox/shared-browser.ts), one context per sign-in; every
 * step waits for the target's answer, never for a timer.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, inject } from 'vitest';
import type {} from '../../harness/service/provided-context.js'; // inject('lockconfBrowser')
import { conformance } from '../../harness/service/conformance.js';
// Loaded when a test signs in: a run that leaves the screens out never loads playwright.
import type { FormShape, SignInBrowser, SignInSession, StepAnswer } from '../../harness/sandbox/sign-in-session.js';
import { locationParams } from '../../harness/wire/secret-harvest.js';
import type { SuiteContext } from '../support/context.js';
import { PrerequisiteFailed } from '../support/prerequisite.js';
import { signInSource, type SignInSource } from '../support/sign-in-source.js';
import { codeGrant, postToken, tokenIssued } from '../support/tokens.js';
import { secondClient } from '../support/second-client.js';
import { eachSlicePair } from '../support/slice-pairs.js';
import type { FixtureClient } from '../../harness/contracts.js';

let browser: Promise<SignInBrowser> | null = null;
afterAll(async () => {
  if (browser) await (await browser).close();
  browser = null;
});

interface Screens {
  t: SuiteContext;
  source: SignInSource;
  /** A new sign-in: a fresh context at the authorization URL (with its own state), of `client` (default: the profile's credential). */
  start(client?: FixtureClient): Promise<{ session: SignInSession; state: string; first: StepAnswer }>;
}

async function screens(t: SuiteContext): Promise<Screens> {
  const source = await signInSource(t);
  // The run's Chromium, started beside vitest's start (harness/sandbox/shared-browser.ts); else one of the file's own.
  const shared = inject('lockconfBrowser');
  browser ??= import('../../harness/sandbox/sign-in-session.js').then((m) => (shared && shared.executablePath === source.executablePath
    ? m.SignInBrowser.connect(shared.wsEndpoint)
    : m.SignInBrowser.launch(source.executablePath)));
  const b = await browser;
  const sessions: SignInSession[] = [];
  return {
    t,
    source,
    async start(client?: FixtureClient) {
      const redirectUri = client?.redirectUri ?? t.target.profile.redirectUri;
      const session = await b.session({ redirectUri, script: source.script });
      sessions.push(session);
      const state = `lockconf-${randomBytes(9).toString('base64url')}`;
      const first = await session.open(t.flows.authorizationUrl({ state, ...(client ? { clientId: client.clientId, redirectUri } : {}) }));
      return { session, state, first };
    },
  };
}

/** What a step answer shows, for messages (no URL, no page text: they may hold codes). */
function shown(a: StepAnswer): string {
  if (a.step === 'redirect') {
    const params = locationParams(a.location);
    return `an HTTP ${a.status} redirect to redirect_uri${params.has('code') ? ' carrying a code' : ''}${params.get('error') ? ` with error=${params.get('error')}` : ''}`;
  }
  return a.step === 'other' ? `a page of no sign-in step (HTTP ${a.status})` : `the ${a.step} step (HTTP ${a.status})`;
}

/**
 * A step that must succeed for this check to mean anything; its failure is OAUTH-SIGN-IN-SCREENS's.
 * An HTTP 429 instead (a rate limit or an account locked after wrong answers, which the spec
 * neither gives nor forbids: earlier runs' wrong passwords may have caused it) leaves the check
 * not tested, never failed.
 */
function expectStep(t: SuiteContext, a: StepAnswer, step: StepAnswer['step'], what: string, own = false): void {
  if (a.step === step) return;
  if (a.status === 429) t.notTested(`${what}: the target answered HTTP 429 instead of the ${step} step (a rate limit or a lockout, which the spec allows); run again once it has passed`);
  const message = `${what}: expected the ${step} step, got ${shown(a)}`;
  if (own) throw new Error(message);
  throw new PrerequisiteFailed('OAUTH-SIGN-IN-SCREENS', message);
}

/** A sign-in with the right password, at its SMS step; resolves with the code sent. */
async function toSmsStep(s: Screens, session: SignInSession, first: StepAnswer, own: boolean): Promise<string> {
  expectStep(s.t, first, 'sign-in', 'GET /authorization', own);
  expectStep(s.t, await session.signIn(s.source.email, s.source.password), 'sms', 'the right e-mail address and password', own);
  return s.source.smsCode();
}

/** A sign-in from its start to the consent step, with the right password and SMS code. */
async function toConsent(s: Screens, own: boolean, client?: FixtureClient): Promise<{ session: SignInSession; state: string }> {
  const { session, state, first } = await s.start(client);
  const code = await toSmsStep(s, session, first, own);
  expectStep(s.t, await session.enterSms(code), 'consent', 'the right SMS code', own);
  return { session, state };
}

/** The code of an approval's redirect exchanged at the token endpoint: whether it yielded a token (null: no code). */
async function exchanged(t: SuiteContext, end: StepAnswer): Promise<{ issued: boolean; status: number } | null> {
  const code = end.step === 'redirect' ? locationParams(end.location).get('code') : null;
  if (!code) return null;
  t.target.redactor.add(code, 'code');
  const res = await postToken(t, codeGrant(t, code));
  return { issued: tokenIssued(res), status: res.status };
}

/** Approve or Cancel ended as the user chose: a redirect to redirect_uri with the state sent; a code that yields a token, or error=access_denied. */
function expectDecision(t: SuiteContext, end: StepAnswer, token: { issued: boolean; status: number } | null, decision: 'approve' | 'deny', state: string, what: string): void {
  t.expect(end.step, `${what}: ${decision === 'approve' ? 'Approve' : 'Cancel'} at the consent step must end in a redirect to redirect_uri; got ${shown(end)}`).toBe('redirect');
  const params = locationParams(end.location);
  t.expect(params.get('state'), `${what}: the redirect must carry the state sent`).toBe(state);
  if (decision === 'deny') {
    t.expect(params.get('error'), `${what}: Cancel must redirect with error=access_denied`).toBe('access_denied');
    t.expect(params.has('code'), `${what}: Cancel must issue no code`).toBe(false);
    return;
  }
  t.expect(params.has('code'), `${what}: Approve must redirect with a code`).toBe(true);
  t.expect(token?.issued, `${what}: the code of the approval must exchange for a token (HTTP ${token?.status})`).toBe(true);
}

/** A sign-in's consent answer judged as `decision` (the code, if any, exchanged once). */
async function decided(t: SuiteContext, session: SignInSession, decision: 'approve' | 'deny'): Promise<{ end: StepAnswer; token: { issued: boolean; status: number } | null }> {
  const end = await session.decide(decision);
  return { end, token: await exchanged(t, end) };
}

/** No code was issued: no redirect carrying one (what the target shows instead is not judged). */
function expectNoCode(t: SuiteContext, a: StepAnswer, what: string): void {
  t.expect(a.step === 'redirect' && locationParams(a.location).has('code'), `${what}: got ${shown(a)}`).toBe(false);
}

/** The code sent, changed in its last character (a digit stays a digit). */
function wrongCode(code: string): string {
  const last = code.at(-1) ?? '0';
  const changed = /\d/.test(last) ? String((Number(last) + 1) % 10) : last === 'x' ? 'y' : 'x';
  return code.slice(0, -1) + changed;
}

describe('Authorization code flow: the sign-in screens (item 2)', () => {
  conformance('OAUTH-SIGN-IN-SCREENS', 'the right password and SMS code lead to the consent step, whose Approve and Cancel end as the user chose', { timeout: 60_000 }, async (t) => {
    const s = await screens(t);
    // The approval is also the sign-in alone (slice sign-ins=alone): one sign-in, judged on both slices.
    for (const decision of t.slices('decision') as Array<'approve' | 'deny'>) {
      const { session, state } = await toConsent(s, true);
      const { end, token } = await decided(t, session, decision);
      await session.close();
      const what = `a sign-in answered with ${decision === 'approve' ? 'Approve' : 'Cancel'}`;
      await t.slice({ decision }, () => expectDecision(t, end, token, decision, state, what));
      if (decision === 'approve') await t.slice({ 'sign-ins': 'alone' }, () => expectDecision(t, end, token, decision, state, `${what} (alone)`));
    }
    await t.slice({ 'sign-ins': 'interleaved' }, async () => {
      // A stops at its SMS step; B starts and finishes; then A finishes: both must succeed.
      const a = await s.start();
      const codeA = await toSmsStep(s, a.session, a.first, true);
      const b = await toConsent(s, true);
      const bEnd = await decided(t, b.session, 'approve');
      expectDecision(t, bEnd.end, bEnd.token, 'approve', b.state, 'the second of two interleaved sign-ins');
      const aAtConsent = await a.session.enterSms(codeA);
      t.expect(aAtConsent.step, `the first of two interleaved sign-ins, finished after the second: its SMS code must lead to the consent step; got ${shown(aAtConsent)}`).toBe('consent');
      const aEnd = await decided(t, a.session, 'approve');
      expectDecision(t, aEnd.end, aEnd.token, 'approve', a.state, 'the first of two interleaved sign-ins');
      await a.session.close();
      await b.session.close();
    });
  });

  conformance('OAUTH-SIGN-IN-WRONG-PASSWORD', 'a wrong password, or an e-mail address of no account, leads neither to the SMS step nor to a code', {}, async (t) => {
    const s = await screens(t);
    await t.eachSlice('credential', async (credential) => {
      const { session, first } = await s.start();
      expectStep(t, first, 'sign-in', 'GET /authorization');
      const email = credential === 'wrong-password' ? s.source.email : `lockconf-nobody-${randomBytes(6).toString('hex')}@example.invalid`;
      const password = credential === 'wrong-password' ? `${s.source.password}-wrong` : s.source.password;
      t.target.redactor.add(password, 'password');
      const answer = await session.signIn(email, password);
      t.expect(answer.step, `${credential === 'wrong-password' ? 'a wrong password for the account\'s e-mail address' : 'an e-mail address of no account'} must not lead to the SMS step; got ${shown(answer)}`).not.toBe('sms');
      t.expect(answer.step, `${credential}: must not skip to the consent step`).not.toBe('consent');
      expectNoCode(t, answer, `${credential}: must issue no code`);
      await session.close();
    });
  });

  conformance('OAUTH-SIGN-IN-WRONG-SMS', 'a wrong SMS code leads neither to the consent step nor to a code', {}, async (t) => {
    const s = await screens(t);
    const { session, first } = await s.start();
    const code = await toSmsStep(s, session, first, false);
    const wrong = wrongCode(code);
    t.target.redactor.add(wrong, 'sms_code');
    const answer = await session.enterSms(wrong);
    t.expect(answer.step, `a wrong SMS code must not lead to the consent step; got ${shown(answer)}`).not.toBe('consent');
    expectNoCode(t, answer, 'a wrong SMS code must issue no code');
    await session.close();
  });

  conformance('OAUTH-SIGN-IN-SMS-NOT-SKIPPED', 'a consent decision posted while the SMS step is current issues no code', {}, async (t) => {
    const s = await screens(t);
    // The consent form as a finished sign-in shows it (the harness's replay: see the reading).
    const done = await toConsent(s, false);
    const shape: FormShape | null = await done.session.consentForm();
    await done.session.close();
    if (!shape || shape.method !== 'post') return t.notTested(`the consent page's Approve button (${s.source.script.consent.approve}) is in no POST form: a consent decision cannot be rebuilt to post from the SMS step`);
    const { session, first } = await s.start();
    await toSmsStep(s, session, first, false);
    const answer = await session.replay(shape);
    if (!answer) return t.notTested('the consent form carries a hidden field the SMS page has not: the form cannot be rebuilt from the SMS step');
    expectNoCode(t, answer, 'a consent decision (Approve) posted while the SMS step is current must issue no code: the SMS verification cannot be skipped');
    await session.close();
  });

  conformance('OAUTH-CONSENT-SHOWS-REQUEST', 'the consent step shows who is requesting access and what is authorized', {}, async (t) => {
    const s = await screens(t);
    const { requester, authorized } = s.source.script.consent;
    if (!requester && !authorized) t.notTested('the login section names no selector of who is requesting access or what is authorized (login.consent.requester, login.consent.authorized)');
    // Whichever application requests access: the second credential of the fixtures signs in through its own request too
    // (its client_id and registered redirect_uri), drawn in pairs with what is shown.
    const atConsent = new Map<string, Promise<SignInSession>>();
    const consentOf = (client: string) => {
      if (!atConsent.has(client)) atConsent.set(client, toConsent(s, false, client === 'second' ? secondClient(t) : undefined).then((c) => c.session));
      return atConsent.get(client)!;
    };
    try {
      await eachSlicePair(t, ['shown', 'client'], async ({ shown: what, client }) => {
        const selector = what === 'requester' ? requester : authorized;
        if (!selector) return t.notTested(`the login section names no selector for ${what === 'requester' ? 'who is requesting access (login.consent.requester)' : 'what is authorized (login.consent.authorized)'}`);
        const session = await consentOf(client!);
        const text = await session.visibleText(selector);
        t.expect(text !== null && text !== '', `the consent step of a request of ${client === 'second' ? 'the second credential of the fixtures' : 'the profile\'s credential'} must show ${what === 'requester' ? 'who is requesting access' : 'what is authorized'}: ${selector} matches ${text === null ? 'no visible element' : 'an element with no text'}`).toBe(true);
      });
    } finally {
      for (const session of atConsent.values()) await session.then((x) => x.close(), () => undefined);
    }
  });
});
