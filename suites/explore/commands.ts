/**
 * The commands of exploration (fast-check model-based testing): every operation a
 * client of the service can make and every control step, each run against the
 * target and judged by the model (harness/model) after it answers. A command picks
 * "any token the sequence holds" by an index into what the model holds, so a
 * sequence replays exactly from its seed.
 */
import fc from 'fast-check';
import {
  issueCode, judge, judgeApproval, observeApi, observeToken, predictApi, predictClientCredentials, predictExchange,
  predictRefresh, predictUnknownRefresh, receivePair, receiveRotated, revoke, setPermission,
  type ModelState, type Prediction, type TokenObservation, type Violation, type Observation,
} from '../../harness/model/index.js';
import type { ExplorePort } from './port.js';
import { AdvanceClock, CLOCK_MOVES_MS, Reset } from './control-commands.js';
export { AdvanceClock, CLOCK_MOVES_MS, Reset };
import { sameShapeToken as sameShape, tamperedJwt as tamperedSignature } from '../support/tokens.js';

export { ModelViolation, step, type Real, type StoryStep } from './steps.js';
import { step, type Real } from './steps.js';

type Cmd = fc.AsyncCommand<ModelState, Real>;

function checked<O extends Observation>(p: Prediction<O>, o: O): Violation | null {
  return judge(p, o);
}

/** The index that picks the newest item (the token a careful client would use); any other picks by position. */
export const NEWEST = -1;
/** The index that picks the refresh token redeemed last (a replay of the token just spent). */
export const LAST_SPENT = -2;

function pick<T>(items: readonly T[], index: number): T | undefined {
  if (items.length === 0) return undefined;
  return index === NEWEST ? items[items.length - 1] : items[index % items.length];
}

const who = (cred: number) => (cred === 0 ? 'the profile\'s credential' : 'the second credential');

/** Secrets of a token pair, under the model's ids. */
function keepPair(r: Real, ids: { access: number; refresh: number }, json: any): void {
  r.secrets.set(ids.access, json.access_token);
  r.secrets.set(ids.refresh, json.refresh_token);
}

export class Authorize implements Cmd {
  constructor(readonly cred: number, readonly user: number) {}
  check(m: Readonly<ModelState>): boolean { return this.cred < m.credentials; }
  async run(m: ModelState, r: Real): Promise<void> {
    const user = this.user % r.port.users;
    const what = `user #${user} (${user === 0 ? 'owner' : 'guest'}) authorizes and approves ${who(this.cred)}`;
    await step(r, what, async () => {
      const code = await r.port.authorize!(this.cred, user);
      const v = judgeApproval(code !== null, what);
      if (!v) r.secrets.set(issueCode(m, this.cred, user).id, code!);
      return v;
    });
  }
  toString(): string { return `Authorize(cred ${this.cred}, user ${this.user})`; }
}

export class ExchangeCode implements Cmd {
  constructor(readonly index: number, readonly asOther: boolean) {}
  check(m: Readonly<ModelState>): boolean { return m.codes.some((c) => c.status !== 'exchanged') && (!this.asOther || m.credentials > 1); }
  async run(m: ModelState, r: Real): Promise<void> {
    const code = pick(m.codes.filter((c) => c.status !== 'exchanged'), this.index)!;
    const cred = this.asOther ? (code.cred + 1) % m.credentials : code.cred;
    const p = predictExchange(m, code, cred);
    await step(r, `${who(cred)} exchanges ${p.what}`, async () => {
      const c = r.port.credentials[cred]!;
      const res = await r.port.token({ grant_type: 'authorization_code', client_id: c.clientId, client_secret: c.clientSecret, code: r.secrets.get(code.id)! });
      const o = observeToken(res);
      const v = checked(p, o);
      if (v) return v;
      if (o === 'pair') {
        code.status = 'exchanged';
        const pair = receivePair(m, { cred, account: 'user', source: 'authorization_code', expiresInSec: res.json.expires_in, user: code.user });
        keepPair(r, { access: pair.access.id, refresh: pair.refresh.id }, res.json);
      } else code.status = code.cred === cred ? 'exchanged' : 'contested';
      return null;
    });
  }
  toString(): string { return `Exchange(code ${this.index}${this.asOther ? ', as the other credential' : ''})`; }
}

class ClientCredentials implements Cmd {
  constructor(readonly cred: number) {}
  check(m: Readonly<ModelState>): boolean { return this.cred < m.credentials; }
  async run(m: ModelState, r: Real): Promise<void> {
    const p = predictClientCredentials(m, this.cred);
    await step(r, `${who(this.cred)} asks for a token: ${p.what}`, async () => {
      const c = r.port.credentials[this.cred]!;
      const res = await r.port.token({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret });
      const o = observeToken(res);
      const v = checked(p, o);
      if (!v && o === 'pair') {
        const pair = receivePair(m, { cred: this.cred, account: 'application', source: 'client_credentials', expiresInSec: res.json.expires_in });
        keepPair(r, { access: pair.access.id, refresh: pair.refresh.id }, res.json);
      }
      return v;
    });
  }
  toString(): string { return `ClientCredentials(cred ${this.cred})`; }
}

export class Refresh implements Cmd {
  constructor(readonly index: number, readonly asOther: boolean) {}
  check(m: Readonly<ModelState>): boolean { return m.refresh.length > 0 && (!this.asOther || m.credentials > 1); }
  async run(m: ModelState, r: Real): Promise<void> {
    const live = m.refresh.filter((t) => t.status === 'issued');
    const spent = m.refresh.filter((t) => t.status === 'used');
    const token = (this.index === NEWEST && live.length > 0 ? pick(live, NEWEST)
      : this.index === LAST_SPENT && spent.length > 0 ? pick(spent, NEWEST)
        : pick(m.refresh, Math.max(0, this.index)))!;
    const cred = this.asOther ? (token.cred + 1) % m.credentials : token.cred;
    const p = predictRefresh(m, token, cred);
    await step(r, `${who(cred)} redeems ${p.what} (link ${token.link} of its chain)`, async () => {
      const c = r.port.credentials[cred]!;
      const secret = r.secrets.get(token.id)!;
      const res = await r.port.token({ grant_type: 'refresh_token', client_id: c.clientId, client_secret: c.clientSecret, refresh_token: secret });
      const o: TokenObservation = observeToken(res, secret);
      const v = checked(p, o);
      if (v) return v;
      if (o === 'pair') {
        token.status = 'used';
        const pair = receivePair(m, { cred: token.cred, account: token.account, source: 'refresh_token', expiresInSec: res.json.expires_in, session: token.session, link: token.link + 1, user: token.user });
        keepPair(r, { access: pair.access.id, refresh: pair.refresh.id }, res.json);
      } else if (cred !== token.cred) token.contested = true;
      else if (token.status === 'issued') token.status = token.contested ? 'revoked' : 'expired';
      return null;
    });
  }
  toString(): string { return `Refresh(token ${this.index}${this.asOther ? ', as the other credential' : ''})`; }
}

class RefreshUnknown implements Cmd {
  check(m: Readonly<ModelState>): boolean { return m.refresh.length > 0; }
  async run(m: ModelState, r: Real): Promise<void> {
    const p = predictUnknownRefresh();
    await step(r, `the profile's credential redeems ${p.what}`, async () => {
      const forged = sameShape(r.secrets.get(m.refresh[0]!.id)!);
      r.port.secret(forged, 'refresh_token');
      const c = r.port.credentials[0]!;
      const res = await r.port.token({ grant_type: 'refresh_token', client_id: c.clientId, client_secret: c.clientSecret, refresh_token: forged });
      return checked(p, observeToken(res, forged));
    });
  }
  toString(): string { return 'RefreshUnknown'; }
}

const ENDPOINTS = ['/users/me', '/users/locks/mine'] as const;

export class ApiCall implements Cmd {
  constructor(readonly index: number, readonly endpoint: number, readonly tampered: boolean) {}
  check(m: Readonly<ModelState>): boolean { return m.access.length > 0; }
  async run(m: ModelState, r: Real): Promise<void> {
    const token = pick(m.access, this.index)!;
    // The application's own account has no locks to list: /users/me only.
    const path = token.account === 'application' ? ENDPOINTS[0] : ENDPOINTS[this.endpoint % ENDPOINTS.length]!;
    const p = predictApi(m, token, this.tampered);
    await step(r, `GET ${path} with ${p.what} of ${who(token.cred)}'s ${token.account === 'user' ? 'user' : 'own account'}`, async () => {
      const secret = r.secrets.get(token.id)!;
      const presented = this.tampered ? tamperedSignature(secret) : secret;
      if (this.tampered) r.port.secret(presented, 'access_token');
      const res = await r.port.api(path, presented, r.port.credentials[token.cred]!.apiKey);
      const o = observeApi(res);
      const v = checked(p, o);
      if (!v && o === 'accepted-rotated' && !this.tampered) {
        token.used = true;
        r.secrets.set(receiveRotated(m, token).id, res.headers['x-access-token']!);
      }
      return v;
    });
  }
  toString(): string { return `ApiCall(token ${this.index}, ${ENDPOINTS[this.endpoint % 2]}${this.tampered ? ', altered' : ''})`; }
}

class Permission implements Cmd {
  constructor(readonly cred: number, readonly enabled: boolean) {}
  check(m: Readonly<ModelState>): boolean { return this.cred < m.credentials; }
  async run(m: ModelState, r: Real): Promise<void> {
    await step(r, `the operator ${this.enabled ? 'grants' : 'withdraws'} ${who(this.cred)}'s client_credentials permission (control)`, async () => {
      await r.port.control!.permission!(r.port.credentials[this.cred]!.clientId, this.enabled);
      setPermission(m, this.cred, this.enabled);
      return null;
    });
  }
  toString(): string { return `Permission(cred ${this.cred}, ${this.enabled ? 'grant' : 'withdraw'})`; }
}

class Revoke implements Cmd {
  constructor(readonly index: number) {}
  check(m: Readonly<ModelState>): boolean { return m.refresh.some((t) => t.status === 'issued'); }
  async run(m: ModelState, r: Real): Promise<void> {
    const token = pick(m.refresh.filter((t) => t.status === 'issued'), this.index)!;
    await step(r, `the operator revokes a refresh token (link ${token.link} of its chain; control)`, async () => {
      const status = await r.port.control!.revoke!(r.secrets.get(token.id)!);
      // A token the target already dropped (expired) may be unknown to it: either way it is dead now.
      if (status >= 200 && status < 300) revoke(m, token);
      else token.status = 'expired';
      return null;
    });
  }
  toString(): string { return `Revoke(token ${this.index})`; }
}

/** The opening of every sequence: a user session of the profile's credential (when the target has consent), so tokens are held from the first command. */
export function openingSteps(port: ExplorePort): Cmd[] {
  if (!port.authorize) return [];
  return port.credentials.flatMap((_, cred) => [new Authorize(cred, 0), new ExchangeCode(NEWEST, false)]);
}

/**
 * The opening of every webhook sequence: a user session of the profile's credential for the owner and the guest,
 * and the owner's registration on the first lock (whole body), so that the sequence's overwrites and deletions meet one.
 */
export function webhookOpening(port: ExplorePort, first: Cmd): Cmd[] {
  if (!port.authorize) return [];
  return [...[0, 1].slice(0, port.users).flatMap((user) => [new Authorize(0, user), new ExchangeCode(NEWEST, false)]), first];
}

/** A new user session of the profile's credential in one command: authorize and approve, then exchange the code at once. */
class NewSession implements Cmd {
  constructor(readonly user: number) {}
  check(): boolean { return true; }
  async run(m: ModelState, r: Real): Promise<void> {
    await new Authorize(0, this.user).run(m, r);
    const exchange = new ExchangeCode(NEWEST, false);
    if (exchange.check(m)) await exchange.run(m, r);
  }
  toString(): string { return `NewSession(user ${this.user})`; }
}

/**
 * The protocol commands that go with the webhook commands: new sessions (in one command, so
 * that a sequence whose clock moved past its tokens' life goes on registering), calls,
 * refreshes, clock moves.
 */
export function webhookSupport(port: ExplorePort): fc.Arbitrary<Cmd>[] {
  const arbs: fc.Arbitrary<Cmd>[] = [
    fc.constant(new Refresh(NEWEST, false)),
    fc.tuple(fc.oneof(fc.constant(NEWEST), fc.nat({ max: 15 })), fc.nat({ max: 1 })).map(([i, e]) => new ApiCall(i, e, false)),
  ];
  if (port.authorize) arbs.push(fc.nat({ max: Math.max(0, port.users - 1) }).map((u) => new NewSession(u)));
  if (port.control?.clock) arbs.push(fc.constantFrom(...CLOCK_MOVES_MS).map((ms) => new AdvanceClock(ms)));
  return arbs;
}

/**
 * A command followed at once by an aimed follow-up: the operation that tries what the command
 * just changed in the model (a token pair received, a refresh token spent, the clock moved, a
 * permission changed) before a later command can hide it, as a registration is followed by
 * an aimed event in the webhook phase. The follow-up is skipped when it cannot run.
 */
export class Then implements Cmd {
  constructor(readonly first: Cmd, readonly next: Cmd | null) {}
  check(m: Readonly<ModelState>): boolean { return this.first.check(m); }
  async run(m: ModelState, r: Real): Promise<void> {
    await this.first.run(m, r);
    if (this.next?.check(m)) await this.next.run(m, r);
  }
  toString(): string { return this.next ? `${this.first}, then ${this.next}` : String(this.first); }
}

/** Changes of one kind in a row (a refresh chain, a permission granted and withdrawn), each with its follow-up. */
export class Chain implements Cmd {
  constructor(readonly steps: readonly Cmd[]) {}
  check(m: Readonly<ModelState>): boolean { return this.steps.some((c) => c.check(m)); }
  async run(m: ModelState, r: Real): Promise<void> {
    for (const c of this.steps) if (c.check(m)) await c.run(m, r);
  }
  toString(): string { return `Chain(${this.steps.map(String).join('; ')})`; }
}

/**
 * The follow-ups, by what the model says a change made worth trying (none of them aims at
 * one fault: each tries the state the rules distinguish right after it changed):
 *   a token pair received: the newest access token on either endpoint, or the chain one link on;
 *   a refresh token spent: the same, or the spent one taken again;
 *   the clock moved: the token spent last taken again, the newest live refresh token, the
 *     newest or an older access token (each token's validity is what moved);
 *   a permission changed: client_credentials asked by that credential.
 */
function followUps(): { pair: fc.Arbitrary<Cmd | null>; spent: fc.Arbitrary<Cmd | null>; clock: fc.Arbitrary<Cmd | null> } {
  const endpoint = fc.nat({ max: 1 });
  const tryNewest = endpoint.map((e): Cmd => new ApiCall(NEWEST, e, false));
  const onward = fc.constant<Cmd>(new Refresh(NEWEST, false));
  const replay = fc.constant<Cmd>(new Refresh(LAST_SPENT, false));
  const older = fc.tuple(fc.nat({ max: 15 }), endpoint).map(([i, e]): Cmd => new ApiCall(i, e, false));
  const none = fc.constant<Cmd | null>(null);
  return {
    pair: fc.oneof({ weight: 3, arbitrary: tryNewest }, { weight: 1, arbitrary: onward }, { weight: 1, arbitrary: none }),
    spent: fc.oneof({ weight: 3, arbitrary: tryNewest }, { weight: 1, arbitrary: onward }, { weight: 1, arbitrary: replay }, { weight: 1, arbitrary: none }),
    clock: fc.oneof({ weight: 2, arbitrary: replay }, { weight: 2, arbitrary: onward }, { weight: 2, arbitrary: tryNewest }, { weight: 1, arbitrary: older }, { weight: 1, arbitrary: none }),
  };
}

/** The command arbitraries this port allows, and the operations left out with the reason. */
export function commandArbitraries(port: ExplorePort): fc.Arbitrary<Cmd>[] {
  const creds = port.credentials.length;
  const cred = fc.nat({ max: creds - 1 });
  // Half the picks are the newest token: long chains and newest-token calls are where sequence-only faults live.
  const index = fc.oneof(fc.constant(NEWEST), fc.nat({ max: 15 }));
  const other = creds > 1 ? fc.boolean() : fc.constant(false);
  // Same-credential refreshes and calls are drawn more often: deep chains are where sequence-only faults live.
  const own = fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: other });
  const refreshIndex = fc.oneof({ weight: 3, arbitrary: fc.constant(NEWEST) }, { weight: 1, arbitrary: fc.constant(LAST_SPENT) }, { weight: 2, arbitrary: fc.nat({ max: 15 }) });
  const then = followUps();
  const refresh = fc.tuple(refreshIndex, own, then.spent).map(([i, o, t]): Cmd => new Then(new Refresh(i, o), t));
  // A refresh chain: the newest live refresh token redeemed two to four times in a row, each link tried at once.
  const chain = fc.array(then.spent.map((t): Cmd => new Then(new Refresh(NEWEST, false), t)), { minLength: 2, maxLength: 4 }).map((cs) => new Chain(cs));
  const arbs: fc.Arbitrary<Cmd>[] = [
    refresh, refresh, refresh, chain,
    fc.tuple(index, fc.nat({ max: 1 }), fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })).map(([i, e, t]) => new ApiCall(i, e, t)),
    fc.tuple(index, fc.nat({ max: 1 })).map(([i, e]) => new ApiCall(i, e, false)),
    fc.constant(new RefreshUnknown()),
  ];
  if (port.authorize) {
    arbs.push(fc.tuple(cred, fc.nat({ max: 1 })).map(([c, u]) => new Authorize(c, u)));
    arbs.push(fc.tuple(index, other, then.pair).map(([i, o, t]) => new Then(new ExchangeCode(i, o), t)));
  }
  const control = port.control;
  if (control?.permission) {
    // A permission changed is tried at once by that credential's client_credentials grant; a rework changes it
    // two or three times in a row (granted, withdrawn, granted again), each change tried.
    const change = fc.tuple(cred, fc.boolean()).map(([c, e]): Cmd => new Then(new Permission(c, e), new ClientCredentials(c)));
    arbs.push(change);
    arbs.push(fc.tuple(cred, fc.boolean(), fc.integer({ min: 2, max: 3 })).map(([c, e, k]) => new Chain(Array.from({ length: k }, (_, i) => new Then(new Permission(c, i % 2 === 0 ? e : !e), new ClientCredentials(c))))));
    arbs.push(fc.tuple(cred, then.pair).map(([c, t]) => new Then(new ClientCredentials(c), t)));
    arbs.push(cred.map((c) => new ClientCredentials(c)));
  }
  const move = fc.tuple(fc.constantFrom(...CLOCK_MOVES_MS), then.clock).map(([ms, t]) => new Then(new AdvanceClock(ms), t));
  if (control?.clock) arbs.push(move, move);
  if (control?.revoke) arbs.push(index.map((i) => new Revoke(i)));
  if (control) arbs.push(fc.constant(new Reset()));
  return arbs;
}
