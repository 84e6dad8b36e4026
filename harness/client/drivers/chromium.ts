/**
 * The Chromium driver of the client probes (driver.ts): Debian's Chromium,
 * headless, through playwright-core, driving the application as a person would:
 * its own pages, its forms with their CSRF tokens, a connect page before
 * authorization and the buttons the profile's `browser` section names
 * (browser-steps.ts). One browser per run; one context (its own cookies) per
 * probe session.
 *
 * Loopback only: every request whose host is not 127.0.0.1, localhost or ::1 is
 * aborted (context.route), and everything else goes to a proxy address nothing
 * answers on (so a redirect to a host name, which routes do not see, goes
 * nowhere either); no DNS lookup is made. Nothing the browser sees (URLs with
 * codes or state, page text) goes into messages: only the profile's own labels.
 */
import { chromium, type Browser as Chromium, type BrowserContext, type LaunchOptions, type Locator, type Page, type Response } from 'playwright-core';
import { chromiumPath } from './chromium-path.js';
import type { BrowserSteps, Click, Press } from './browser-steps.js';
import { DriverFailure, type Driver, type DriverFactory, type DriverTarget, type Landing } from './driver.js';

/** Flags for a headless run, also as root in a container: no sandbox, no GPU, nothing phoning home, no DNS. */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE ::1', // no name is looked up
];
/** Requests the routes cannot see (redirects) go to this proxy, where nothing listens: they fail. */
export const DEAD_PROXY = { server: 'http://127.0.0.1:9', bypass: '127.0.0.1,localhost,[::1]' };

/** How the driver launches Chromium (tests launch their shared browser the same way). */
export function launchOptions(executablePath: string): LaunchOptions {
  return { executablePath, args: CHROMIUM_ARGS, proxy: DEAD_PROXY };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
export function isLoopback(url: URL): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);
}

const describeClick = (c: Click): string => (typeof c === 'string' ? `"${c}"` : 'selector' in c ? `the selector "${c.selector}"` : `the label "${c.label}"`);

class ChromiumDriver implements Driver {
  readonly kind = 'chromium' as const;
  /** The application's page the last browse landed on (where buttons are pressed by default). */
  #home: string | null = null;
  /** The application sent the user back to authorization after the sign-in (a 401, a refused refresh): its session ended. */
  #sessionEnded = false;
  /** The page shown is the application's error answer to the last click, or null. */
  #errorPage: string | null = null;
  /** The application's error answers to this session's clicks (a form POST answered 403), in order. */
  readonly errorAnswers: string[] = [];

  constructor(
    private readonly target: DriverTarget,
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly timeout: number,
    /** Tells the run what kept every probe from the application (said beside the rules left untested). */
    private readonly note: (why: string) => void = () => {},
  ) {}

  /**
   * A failure of a step the profile names, thrown to the probe family that took it (which
   * reports it as its own reason). Only a failure on the way to authorization keeps every
   * family from the application: that one is also noted for the whole run.
   */
  private fail(why: string, everyFamily = false): never {
    if (everyFamily) this.note(why);
    throw new DriverFailure(why);
  }

  get canRefresh(): boolean {
    return Boolean(this.target.browser?.refresh ?? this.target.refreshUrl);
  }

  private get authz(): string {
    return `${this.target.authUrl}/authorization`;
  }

  private loopbackOnly(url: string): void {
    if (!URL.canParse(url) || !isLoopback(new URL(url))) throw new DriverFailure('the browser opens loopback addresses only (127.0.0.1, localhost, ::1)');
  }

  async browse(url: string): Promise<Landing> {
    this.loopbackOnly(url);
    let status = 0;
    try {
      status = (await this.page.goto(url, { waitUntil: 'load', timeout: this.timeout }))?.status() ?? 0;
    } catch (err) {
      // Playwright's message names the URL (a code, a state): only its kind is told.
      throw new DriverFailure(`the browser could not open a page of the application (${(err as Error).name})`);
    }
    this.#errorPage = null;
    const landed = this.page.url();
    const app = new URL(this.target.connectUrl).origin;
    if (status === 200 && URL.canParse(landed) && new URL(landed).origin === app) this.#home = landed;
    if (landed.startsWith(this.authz)) this.#sessionEnded = true;
    return { url: landed, status, reachedAuthorization: landed.startsWith(this.authz) };
  }

  async get(url: string): Promise<{ status: number; location: string | null }> {
    this.loopbackOnly(url);
    const res = await this.context.request.get(url, { maxRedirects: 0, timeout: this.timeout });
    const location = res.headers().location;
    await res.dispose();
    return { status: res.status(), location: location ? new URL(location, url).toString() : null };
  }

  async post(url: string): Promise<number> {
    this.loopbackOnly(url);
    const res = await this.context.request.post(url, { maxRedirects: 0, timeout: this.timeout });
    await res.dispose();
    return res.status();
  }

  async toAuthorization(): Promise<string> {
    const landing = await this.browse(this.target.connectUrl);
    const clicks = ([] as Click[]).concat(this.target.browser?.connect?.click ?? []);
    for (const click of clicks) {
      if (this.page.url().startsWith(this.authz)) break;
      await this.press(click, 'on the way to authorization', true, true);
    }
    if (!this.page.url().startsWith(this.authz)) {
      const how = clicks.length ? `after clicking ${clicks.map(describeClick).join(', ')}` : `(the connect URL answered ${landing.status}; a button to press there goes in the profile's browser.connect.click)`;
      this.fail(`the browser did not reach ${this.authz} ${how}`, true);
    }
    this.#sessionEnded = false; // the sign-in starts here
    return this.page.url();
  }

  async refresh(): Promise<void> {
    const press = this.target.browser?.refresh;
    if (press) return this.pressOn(press, 'refresh');
    if (!this.target.refreshUrl) throw new DriverFailure('the profile names no refresh button (browser.refresh) and no refreshUrl');
    await this.browse(this.target.refreshUrl);
  }

  async act(): Promise<void> {
    const actions = this.target.browser?.actions;
    if (actions?.length) {
      for (const [i, action] of actions.entries()) await this.pressOn(action, `action ${i + 1}`);
      return;
    }
    for (const url of this.target.actionUrls ?? []) await this.post(url);
  }

  /**
   * Opens the press's page (unless the browser is on it) and presses its button. Once the
   * application has sent the user back to authorization (a 401, a refused refresh ends a
   * session), there may be nothing to press: a person would face the sign-in page or the
   * connect page, and the step ends there.
   */
  private async pressOn(press: Press, what: string): Promise<void> {
    if (this.page.url().startsWith(this.authz)) return;
    const page = press.page ?? this.#home ?? new URL(this.target.connectUrl).origin;
    // After an error answer a person goes back to the application's page, as from any other page.
    if (this.page.url() !== page || this.#errorPage) await this.browse(page);
    if (this.#sessionEnded && (await this.count(press.click)) === 0) return;
    await this.press(press.click, `(${what})`);
  }

  /**
   * Clicks one button or link and waits for the page it leads to. An error status on that
   * page (a form POST answered 403) is this button's, named here (`errorAnswers`): the next
   * step starts again from the application's page instead of looking for its button on the
   * error page. On the way to authorization (`errorStops`) it ends the step.
   */
  private async press(click: Click, what: string, everyFamily = false, errorStops = false): Promise<void> {
    const target = await this.locate(click, what, everyFamily);
    const loaded = this.page.waitForEvent('load', { timeout: this.timeout });
    let status = 0;
    const onResponse = (response: Response) => {
      if (response.request().isNavigationRequest() && response.frame() === this.page.mainFrame()) status = response.status();
    };
    this.page.on('response', onResponse);
    try {
      await target.click({ timeout: this.timeout });
      await loaded;
      if (this.page.url().startsWith(this.authz)) this.#sessionEnded = true;
    } catch (err) {
      loaded.catch(() => {});
      this.fail(`clicking ${describeClick(click)} ${what} led to no page (${(err as Error).name})`, everyFamily);
    } finally {
      this.page.off('response', onResponse);
    }
    if (status < 400) return;
    const answered = `the application answered ${status} to clicking ${describeClick(click)} ${what}`;
    if (errorStops) this.fail(answered, everyFamily);
    this.#errorPage = answered;
    this.errorAnswers.push(answered);
  }

  private async count(click: Click): Promise<number> {
    return (await this.find(click)).count();
  }

  /** The one element a click names, or a failure naming the click. */
  private async locate(click: Click, what: string, everyFamily: boolean): Promise<Locator> {
    const found = await this.find(click);
    const count = await found.count();
    if (count === 0) this.fail(`no button or link ${describeClick(click)} on the application's page ${what}${this.#errorPage ? ` (that page was its answer to an earlier click: ${this.#errorPage})` : ''}`, everyFamily);
    if (count > 1) this.fail(`${count} elements match ${describeClick(click)} on the application's page ${what}: name one`, everyFamily);
    return found;
  }

  /** A string is a CSS selector when it matches on the page, else the accessible name of a button or link. */
  private async find(click: Click): Promise<Locator> {
    const byName = (name: string) => this.page.getByRole('button', { name, exact: true }).or(this.page.getByRole('link', { name, exact: true }));
    let found: Locator;
    if (typeof click === 'string') {
      const matches = await this.page.evaluate((s) => {
        try {
          return (globalThis as unknown as { document: { querySelectorAll(css: string): { length: number } } }).document.querySelectorAll(s).length;
        } catch {
          return 0;
        }
      }, click);
      found = matches > 0 ? this.page.locator(click) : byName(click);
    } else {
      found = 'selector' in click ? this.page.locator(click.selector) : byName(click.label);
    }
    return found;
  }
}

export interface ChromiumDriversOptions {
  /** A browser already launched (tests share one per file); it is left open by close(). */
  browser?: Chromium;
  env?: NodeJS.ProcessEnv;
}

/** Launches Chromium (unless given one) and opens a driver session per probe. */
export async function chromiumDrivers(target: DriverTarget, opts: ChromiumDriversOptions = {}): Promise<DriverFactory> {
  const steps = target.browser ?? null;
  const own = !opts.browser;
  const browser = opts.browser ?? (await chromium.launch(launchOptions(chromiumPath(steps, opts.env))));
  const timeout = steps?.stepTimeoutMs ?? 10_000;
  const contexts: BrowserContext[] = [];
  const refused = new Set<string>();
  const notes = new Set<string>();
  return {
    kind: 'chromium',
    async open(t) {
      const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false, proxy: DEAD_PROXY });
      contexts.push(context);
      await context.route((url) => !isLoopback(url), async (route) => {
        refused.add(new URL(route.request().url()).hostname);
        await route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.setDefaultTimeout(timeout);
      // What the application sends to the browser, scanned for its credentials (content-scan.ts).
      const scan = t.scan;
      if (scan) {
        const app = new URL(t.connectUrl).origin;
        page.on('response', (response) => {
          if (new URL(response.url()).origin !== app) return;
          scan.track(response.text().then((text) => scan.see(response.request().method(), response.url(), text)));
        });
      }
      return new ChromiumDriver(t, context, page, timeout, (why) => notes.add(why));
    },
    get undriven() {
      const all = [...notes];
      if (refused.size) all.push(`the browser was kept from requests to other hosts (${[...refused].slice(0, 5).join(', ')}): lockconf drives loopback addresses only`);
      return all.length ? all.join('; ') : null;
    },
    async close() {
      for (const c of contexts.splice(0)) await c.close().catch(() => {});
      if (own) await browser.close();
    },
  };
}
