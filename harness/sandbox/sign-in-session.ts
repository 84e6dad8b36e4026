/**
 * The target's sign-in screens step by step, in headless Chromium (playwright-core):
 * what `npm run login -- --browser` does in one go (browser-login.ts), cut into
 * steps a suite can stop and probe between: open the authorization URL, sign in,
 * enter the SMS code, answer the consent page, or post a form built like another.
 *
 * Every step ends on the target's answer, never on a timer: each page the browser
 * navigates to is fetched by the harness (route.fetch, no redirect followed), its
 * status and Location recorded, then handed to the browser; the step returns once
 * the browser has loaded the answer. A redirect to redirect_uri is not followed: the
 * browser gets a blank page instead, so a code never reaches the application.
 *
 * Loopback only, as the client driver (harness/client/drivers/chromium.ts): every
 * request to a host other than 127.0.0.1, localhost or ::1 is aborted, redirects the
 * routes cannot see go to a dead proxy, no host name is looked up. Nothing the pages
 * show goes into a message: only the profile's selectors and the step names.
 */
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { DEAD_PROXY, isLoopback, launchOptions } from '../client/drivers/chromium.js';
import type { BrowserLoginScript } from './browser-login.js';
import { onRedirectUri } from '../wire/redirect-target.js';

/** The little of the DOM the in-page functions use (the project compiles without the DOM library). */
interface DomField { name: string; type: string; value: string; tagName: string }
interface DomForm { action: string; method: string; elements: Iterable<DomField>; getAttribute(name: string): string | null; append(child: unknown): void; submit(): void }
interface DomButton extends DomField { form: DomForm | null }
interface DomDocument { querySelectorAll(css: string): Iterable<DomField>; createElement(tag: string): unknown; body: { append(child: unknown): void } }

export type SignInStep = 'sign-in' | 'sms' | 'consent' | 'redirect' | 'other';

/** Where a step of the sign-in left the browser. */
export interface StepAnswer {
  step: SignInStep;
  /** The status of the last answer of the target (the redirect's, for `redirect`). */
  status: number;
  /** For `redirect`: the Location, on redirect_uri (it may carry a code: a secret). */
  location: string | null;
}

/** A form as a page declares it: where it goes, how, and the names of its fields. */
export interface FormShape {
  action: string;
  method: string;
  /** Every named field, the submit button's name and value included. */
  fields: Array<{ name: string; type: string; value: string }>;
}

/** One Chromium for the suite: a context (own cookies) per sign-in. */
export class SignInBrowser {
  private constructor(private readonly browser: Browser) {}

  static async launch(executablePath: string): Promise<SignInBrowser> {
    return new SignInBrowser(await chromium.launch(launchOptions(executablePath)));
  }

  /** The run's Chromium, already started (harness/sandbox/shared-browser.ts); close() only disconnects from it. */
  static async connect(wsEndpoint: string): Promise<SignInBrowser> {
    return new SignInBrowser(await chromium.connect(wsEndpoint));
  }

  async session(opts: { redirectUri: string; script: BrowserLoginScript }): Promise<SignInSession> {
    const context = await this.browser.newContext({ serviceWorkers: 'block', acceptDownloads: false, proxy: DEAD_PROXY });
    const session = new SignInSession(context, await context.newPage(), opts.redirectUri, opts.script);
    await session.routeAll();
    return session;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

export class SignInSession {
  /** The answers to the document requests of the current step, in order. */
  #answers: Array<{ status: number; location: string | null }> = [];

  constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly redirectUri: string,
    private readonly script: BrowserLoginScript,
  ) {
    page.setDefaultTimeout(script.stepTimeoutMs);
  }

  async routeAll(): Promise<void> {
    await this.context.route(() => true, (route) => this.#answer(route));
  }

  async #answer(route: Route): Promise<void> {
    const request = route.request();
    const url = new URL(request.url());
    if (!isLoopback(url)) return route.abort('blockedbyclient');
    if (!request.isNavigationRequest() || request.frame() !== this.page.mainFrame()) return route.continue();
    try {
      const response = await route.fetch({ maxRedirects: 0 });
      const raw = response.headers().location;
      const location = raw && URL.canParse(raw, url.href) ? new URL(raw, url).href : null;
      this.#answers.push({ status: response.status(), location });
      if (location && response.status() >= 300 && response.status() < 400 && onRedirectUri(location, this.redirectUri)) {
        return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>lockconf</title><p>lockconf received the redirect.</p>' });
      }
      return route.fulfill({ response });
    } catch {
      this.#answers.push({ status: 0, location: null });
      return route.abort('connectionfailed');
    }
  }

  /** Runs an action that makes the browser navigate, and waits for the page it lands on. */
  async #navigate(action: () => Promise<unknown>): Promise<StepAnswer> {
    this.#answers = [];
    const loaded = this.page.waitForEvent('load');
    await action();
    await loaded;
    const redirect = this.#answers.find((a) => a.location !== null && a.status >= 300 && a.status < 400 && onRedirectUri(a.location, this.redirectUri));
    if (redirect) return { step: 'redirect', status: redirect.status, location: redirect.location };
    return { step: await this.currentStep(), status: this.#answers.at(-1)?.status ?? 0, location: null };
  }

  /** Which step the loaded page shows, by the login section's selectors. */
  async currentStep(): Promise<SignInStep> {
    const has = async (selector: string) => (await this.page.locator(selector).count()) > 0;
    if (await has(this.script.sms.code)) return 'sms';
    if (await has(this.script.consent.approve)) return 'consent';
    if (await has(this.script.signIn.password)) return 'sign-in';
    return 'other';
  }

  open(authorizationUrl: string): Promise<StepAnswer> {
    return this.#navigate(() => this.page.goto(authorizationUrl, { waitUntil: 'commit' }));
  }

  signIn(email: string, password: string): Promise<StepAnswer> {
    return this.#navigate(async () => {
      await this.page.fill(this.script.signIn.email, email);
      await this.page.fill(this.script.signIn.password, password);
      await this.page.click(this.script.signIn.submit, { noWaitAfter: true });
    });
  }

  enterSms(code: string): Promise<StepAnswer> {
    return this.#navigate(async () => {
      await this.page.fill(this.script.sms.code, code);
      await this.page.click(this.script.sms.submit, { noWaitAfter: true });
    });
  }

  decide(decision: 'approve' | 'deny'): Promise<StepAnswer> {
    const button = decision === 'approve' ? this.script.consent.approve : this.script.consent.deny;
    return this.#navigate(() => this.page.click(button, { noWaitAfter: true }));
  }

  /** The form holding the consent page's Approve button, as the page declares it; null when there is none. */
  async consentForm(): Promise<FormShape | null> {
    const button = this.page.locator(this.script.consent.approve).first();
    if ((await button.count()) === 0) return null;
    return button.evaluate((el) => {
      const b = el as unknown as DomButton;
      const form = b.form;
      if (!form) return null;
      const fields = [...form.elements]
        .filter((e) => Boolean(e.name) && e.tagName !== 'BUTTON')
        .map((e) => ({ name: e.name, type: e.type, value: e.value }));
      if (b.name) fields.push({ name: b.name, type: 'submit', value: b.value });
      return { action: form.action, method: (form.getAttribute('method') ?? 'get').toLowerCase(), fields };
    });
  }

  /**
   * Posts, from the current page, a form built like `shape`: its action, method and
   * field names, with the current page's values of the hidden fields it shares with
   * it and the shape's own values for the rest (the decision button). Null when a
   * field of the shape is hidden there but not here: the form cannot be rebuilt.
   */
  async replay(shape: FormShape): Promise<StepAnswer | null> {
    const values = await this.page.evaluate((names) => {
      const doc = (globalThis as unknown as { document: DomDocument }).document;
      return Object.fromEntries(names.map((n) => [n, [...doc.querySelectorAll('input[type=hidden]')].find((e) => e.name === n)?.value ?? null]));
    }, shape.fields.map((f) => f.name));
    const filled: Array<[string, string]> = [];
    for (const f of shape.fields) {
      const here = values[f.name];
      if (f.type === 'hidden' && (here === null || here === undefined)) return null;
      filled.push([f.name, f.type === 'hidden' ? here! : f.value]);
    }
    return this.#navigate(() => this.page.evaluate(({ action, method, fields }) => {
      const doc = (globalThis as unknown as { document: DomDocument }).document;
      const form = doc.createElement('form') as DomForm;
      form.action = action;
      form.method = method;
      for (const [name, value] of fields) {
        const input = doc.createElement('input') as DomField;
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      doc.body.append(form);
      form.submit();
    }, { action: shape.action, method: shape.method, fields: filled }));
  }

  /** The visible text of the first element `selector` matches; null when none is visible. */
  async visibleText(selector: string): Promise<string | null> {
    const el = this.page.locator(selector).first();
    if ((await el.count()) === 0 || !(await el.isVisible())) return null;
    return (await el.innerText()).trim();
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
