/**
 * GET /: the mock's start page for a developer. Its target profile (without a
 * secret: the client secret, API key and control token stay in the profile file),
 * the test users and how to sign in as them, the locks, copy-paste curl examples
 * and links to the API description (/docs) and the deliveries page.
 */
import type { FastifyInstance } from 'fastify';
import type { TargetProfile } from '../../harness/contracts.js';
import type { MockContext } from '../context.js';
import { commandLine, workDirName } from '../commands.js';
import { exampleSteps } from './landing-examples.js';
import { html, page, type SafeHtml } from './layout.js';

export interface LandingOptions {
  /** The profile once the mock listens (undefined before). */
  profile: () => TargetProfile | undefined;
  /** The seed of stable identities, when the mock was started with one. */
  seed?: number | undefined;
}

function secretNote(ctx: MockContext): string {
  return `not shown here: in .lockconf/mock-target.json (${commandLine(ctx.options.commandStyle ?? 'npm', 'mock')} writes it, mode 0600)`;
}

function yes(value: boolean): string {
  return value ? 'yes' : 'no';
}

function profileSection(ctx: MockContext, profile: TargetProfile): SafeHtml {
  const rows: Array<[string, string | SafeHtml]> = [
    ['authUrl', profile.authUrl],
    ['baseUrl', profile.baseUrl],
    ['controlUrl', profile.controlUrl ?? 'none: this mock runs without the control protocol'],
    ['clientId', profile.clientId],
    ['clientSecret', html`<em>${secretNote(ctx)}</em>`],
    ['apiKey', html`<em>${secretNote(ctx)}</em>`],
    ['controlToken', profile.controlUrl ? html`<em>${secretNote(ctx)}</em>` : '—'],
    ['redirectUri', profile.redirectUri],
    ['login redirect URI', ctx.credentials.loginRedirectUri ?? `none (${commandLine(ctx.options.commandStyle ?? 'npm', 'mock')} registers one for ${commandLine(ctx.options.commandStyle ?? 'npm', 'login')})`],
    ['statusCheck', `${profile.statusCheck?.method ?? 'PUT'} ${profile.statusCheck?.path ?? '/remoteoperate/{lockId}/status'}`],
  ];
  return html`<div class="scroll"><table data-testid="profile">${rows.map(([k, v]) => html`<tr><th>${k}</th><td><code>${v}</code></td></tr>`)}</table></div>`;
}

/** Rows shown before the fold: the fixtures the page's text and the curl tour speak of. */
const SHOWN_USERS = 3;
const SHOWN_LOCKS = 2;

/** The first rows in a table, the rest folded in a <details> (131 users and 130 locks would bury the page). */
function folded(testid: string, what: string, header: SafeHtml, rows: SafeHtml[], shown: number): SafeHtml {
  const table = (id: string, part: SafeHtml[]) => html`<div class="scroll"><table data-testid="${id}">${header}${part}</table></div>`;
  const rest = rows.slice(shown);
  return html`${table(testid, rows.slice(0, shown))}${rest.length
    ? html`<details data-testid="more-${testid}"><summary>${rest.length} more ${what} (${rows.length} in all; also in the profile file's fixtures and GET /_control/fixtures)</summary>${table(`${testid}-more`, rest)}</details>`
    : ''}`;
}

function usersSection(ctx: MockContext): SafeHtml {
  const rows = ctx.world.users.map((u) => {
    const access = ctx.world.locks
      .filter((l) => l.members.has(u.userId))
      .map((l) => `${l.name} (${l.members.get(u.userId) === 'superuser' ? 'owner' : 'guest'})`)
      .join(', ');
    return html`<tr><td>${u.firstName} ${u.lastName}</td><td><code>${u.email}</code></td><td><code>${u.password}</code></td><td>${u.phoneNo}</td><td><code>${u.userId}</code></td><td>${access || 'no lock'}</td></tr>`;
  });
  return folded('users', 'users', html`<tr><th>Name</th><th>E-mail</th><th>Password</th><th>Phone</th><th>userId</th><th>Locks</th></tr>`, rows, SHOWN_USERS);
}

function locksSection(ctx: MockContext): SafeHtml {
  const rows = ctx.world.locks.map((l) => html`<tr><td>${l.name}</td><td><code>${l.lockId}</code></td><td>${l.state}</td><td>${yes(l.keypad)}</td><td>${yes(l.doorSensor)}</td><td>${yes(l.builtInKeypad)}</td><td><code>${l.bridgeId}</code></td></tr>`);
  return folded('locks', 'locks', html`<tr><th>Name</th><th>lockId</th><th>State</th><th>Keypad</th><th>Door sensor</th><th>Built-in keypad</th><th>Bridge</th></tr>`, rows, SHOWN_LOCKS);
}

function statusLine(ctx: MockContext, seed: number | undefined): SafeHtml {
  const faults = ctx.faults.list();
  const variants = [
    ctx.options.signatureEncoding === 'base64' ? 'base64 signatures' : null,
    ctx.options.lowerCaseLockIds ? 'lower-case lock IDs' : null,
    ctx.options.extraFields ? 'unknown extra fields' : null,
  ].filter((v): v is string => v !== null);
  return html`<p>
${seed !== undefined ? html`<span class="pill ok">stable identities (seed ${seed})</span>` : html`<span class="pill">identities new on every start</span>`}
${ctx.options.control ? html`<span class="pill ok">control protocol on</span>` : html`<span class="pill warn">no control protocol</span>`}
${faults.length ? html`<span class="pill bad" data-testid="faults">faults: ${faults.join(', ')}</span>` : html`<span class="pill ok">no fault: conforms to the spec</span>`}
${variants.length ? html`<span class="pill">variants: ${variants.join(', ')}</span>` : ''}
</p>`;
}

export function landingPage(ctx: MockContext, profile: TargetProfile, url: string, seed: number | undefined): string {
  const demoRedirect = `${url}/callback`;
  const signIn = new URL(`${profile.authUrl}/authorization`);
  signIn.searchParams.set('client_id', profile.clientId);
  signIn.searchParams.set('redirect_uri', ctx.credentials.redirectUri === demoRedirect ? demoRedirect : profile.redirectUri);
  signIn.searchParams.set('state', 'try-me');
  const [user] = ctx.world.users;
  const [lock] = ctx.world.locks;
  const steps = exampleSteps({ profile, url, userId: user?.userId ?? '', lockId: lock?.lockId ?? '', redirectUri: signIn.searchParams.get('redirect_uri')!, mockCommand: commandLine(ctx.options.commandStyle ?? 'npm', 'mock') })
    .filter((s) => !s.control || ctx.options.control);
  const body = html`<h1>Reference mock</h1>
<p>A faithful implementation of the Lock Access Service specification, for developing and testing applications
and for certifying the conformance suite itself. Everything lives in memory; a restart starts over.</p>
${statusLine(ctx, seed)}
<nav class="links"><a href="/docs">API description (OpenAPI)</a><a href="/docs/json">OpenAPI JSON</a><a href="/deliveries">Webhook deliveries</a><a href="/error">Token error page</a></nav>

<h2>Try it with curl</h2>
<p class="note">Run the steps in order in one shell, from the directory holding <code>.lockconf/</code> (${workDirName(ctx.options.commandStyle ?? 'npm')}).
${ctx.options.control ? '' : `Without the control protocol, get tokens with ${commandLine(ctx.options.commandStyle ?? 'npm', 'login', '--target .lockconf/mock-target.json')} instead of step 2.`}</p>
${steps.map((s, i) => html`<h3>${i + 1}. ${s.title}</h3><p class="note">${s.note}</p><pre data-testid="curl">${s.script}</pre>`)}

<h2>Target profile</h2>
<p class="note">Point lockconf at this mock with <code>${commandLine(ctx.options.commandStyle ?? 'npm', 'conformance', '--target .lockconf/mock-target.json')}</code>.</p>
${profileSection(ctx, profile)}

<h2>Test users</h2>
<p>Sign in through the real pages: e-mail and password, then a six-digit SMS code (the SMS page links to the
<em>mock phone</em>, and the code is in the mock's log), then consent.
<a href="${signIn.toString()}" data-testid="try-sign-in">Try the sign-in</a> (it ends on the demo application page).</p>
${usersSection(ctx)}

<h2>Locks</h2>
<p class="note">The first user owns both locks; the second is a guest on the first.</p>
${locksSection(ctx)}

`;
  return page('Lock Access Service mock', body, { wide: true });
}

export function registerLandingPage(app: FastifyInstance, ctx: MockContext, opts: LandingOptions): void {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const profile = opts.profile();
    if (!profile) return reply.code(503).send({ error: 'starting', message: 'the mock is starting' });
    const url = profile.authUrl.replace(/\/oauth$/, '');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(landingPage(ctx, profile, url, opts.seed));
  });
}
