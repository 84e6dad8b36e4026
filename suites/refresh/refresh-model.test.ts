/**
 * The refresh-token state machine of the spec (States and transitions → Refresh
 * token), driven against the target by a fast-check model: refresh the current
 * token, reuse an old one, revoke, let time pass (past a year), try an unknown
 * token, start a new session. Every answer is compared with the model:
 *   issued, used within a year     → 200, a new pair; the old token becomes used;
 *   used, expired, revoked, unknown → 400.
 * Around the one-year mark (364 days to 366 days + 1 minute) either answer is
 * accepted, since "a year" may be 365 or 366 days.
 */
import fc from 'fast-check';
import { describe } from 'vitest';
import { conformance } from '../../harness/service/conformance.js';
import type { HttpResponse } from '../../harness/contracts.js';
import type { SuiteContext } from '../support/context.js';
import { control, targetNow } from '../support/context.js';
import { checkProperty } from '../support/property.js';
import { isPrerequisiteFailed } from '../support/prerequisite.js';
import { postToken, refreshGrant, sameShapeToken, tokenIssued } from '../support/tokens.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SURELY_VALID_MS = 364 * DAY;
const SURELY_EXPIRED_MS = 366 * DAY + 60_000;

type Status = 'issued' | 'used' | 'revoked' | 'expired';
interface Entry { token: string; issuedAt: number; status: Status }
interface Model { entries: Entry[]; now: number }
interface Real { t: SuiteContext; steps: string[] }

function current(m: Model): Entry | undefined {
  return m.entries[m.entries.length - 1];
}

async function refresh(r: Real, token: string): Promise<HttpResponse> {
  return postToken(r.t, refreshGrant(r.t, token));
}

/** A wrong answer, with the requirement of the rule it breaks. */
class ModelMismatch extends Error {
  constructor(readonly requirement: string, message: string) {
    super(message);
  }
}

function mismatch(requirement: string, step: string, expected: string, res: HttpResponse): ModelMismatch {
  return new ModelMismatch(requirement, `${step}: expected ${expected}; got HTTP ${res.status}${tokenIssued(res) ? ' with a token' : ''}`);
}

/** Why a use of this entry must be refused: the rule a wrongly accepted use breaks. */
function refusalRule(e: Entry): string {
  if (e.status === 'used') return 'REFRESH-SINGLE-USE';
  if (e.status === 'revoked') return 'REFRESH-REVOKED';
  return 'REFRESH-EXPIRED-AFTER-YEAR';
}

/** What the spec says a use of this entry must answer now: 'ok', 'refused', or 'either' near the year mark. */
function expectation(e: Entry, now: number): 'ok' | 'refused' | 'either' {
  if (e.status !== 'issued') return 'refused';
  const age = now - e.issuedAt;
  if (age < SURELY_VALID_MS) return 'ok';
  if (age > SURELY_EXPIRED_MS) return 'refused';
  return 'either';
}

class RefreshCurrent implements fc.AsyncCommand<Model, Real> {
  check(m: Readonly<Model>): boolean { return current(m) !== undefined; }
  async run(m: Model, r: Real): Promise<void> {
    const e = current(m)!;
    const want = expectation(e, m.now);
    const age = Math.round((m.now - e.issuedAt) / HOUR);
    const step = `refresh the current token (${e.status}, ${age} h old)`;
    r.steps.push(step);
    const res = await refresh(r, e.token);
    if (want === 'ok' || (want === 'either' && tokenIssued(res))) {
      if (res.status !== 200 || !tokenIssued(res) || typeof res.json.refresh_token !== 'string') {
        throw mismatch(m.now - e.issuedAt > DAY ? 'REFRESH-VALID-WITHIN-YEAR' : 'REFRESH-NEW-PAIR', step, 'HTTP 200 with a new token pair', res);
      }
      if (res.json.refresh_token === e.token) throw new ModelMismatch('REFRESH-NEW-PAIR', `${step}: the refresh_token returned is the one redeemed`);
      e.status = 'used';
      m.entries.push({ token: res.json.refresh_token, issuedAt: m.now, status: 'issued' });
      return;
    }
    if (res.status !== 400 || tokenIssued(res)) throw mismatch(refusalRule(e.status === 'issued' ? { ...e, status: 'expired' } : e), step, 'HTTP 400 and no token', res);
    if (e.status === 'issued') e.status = 'expired';
  }
  toString(): string { return 'RefreshCurrent'; }
}

class ReuseOld implements fc.AsyncCommand<Model, Real> {
  check(m: Readonly<Model>): boolean { return m.entries.some((e) => e.status === 'used'); }
  async run(m: Model, r: Real): Promise<void> {
    const e = [...m.entries].reverse().find((x) => x.status === 'used')!;
    const step = 'reuse a used refresh token';
    r.steps.push(step);
    const res = await refresh(r, e.token);
    if (res.status !== 400 || tokenIssued(res)) throw mismatch('REFRESH-SINGLE-USE', step, 'HTTP 400 and no token', res);
  }
  toString(): string { return 'ReuseOld'; }
}

class Revoke implements fc.AsyncCommand<Model, Real> {
  check(m: Readonly<Model>): boolean { return current(m)?.status === 'issued'; }
  async run(m: Model, r: Real): Promise<void> {
    const e = current(m)!;
    r.steps.push('revoke the current refresh token (control)');
    const status = await control(r.t).revokeRefreshToken(e.token);
    // An expired token may already be gone; the model only needs it dead afterwards.
    if (status >= 200 && status < 300) e.status = 'revoked';
    else if (expectation(e, m.now) === 'ok') throw new ModelMismatch('REFRESH-REVOKED', `control: revoking a live refresh token answered ${status}`);
    else e.status = 'expired';
  }
  toString(): string { return 'Revoke'; }
}

class AdvanceClock implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    r.steps.push(`advance the clock ${Math.round(this.ms / HOUR)} h`);
    await control(r.t).advanceClock(this.ms);
    m.now += this.ms;
  }
  toString(): string { return `AdvanceClock(${Math.round(this.ms / HOUR)} h)`; }
}

class UseUnknown implements fc.AsyncCommand<Model, Real> {
  check(m: Readonly<Model>): boolean { return current(m) !== undefined; }
  async run(m: Model, r: Real): Promise<void> {
    const forged = sameShapeToken(current(m)!.token);
    r.t.target.redactor.add(forged, 'refresh_token');
    const step = 'redeem a refresh token the service never issued';
    r.steps.push(step);
    const res = await refresh(r, forged);
    // That it is refused (REFRESH-UNKNOWN-REFUSED); how (RFC 6749 §5.2's 400) is REFRESH-UNKNOWN-ERROR-ANSWER's own test.
    if (tokenIssued(res)) throw mismatch('REFRESH-UNKNOWN-REFUSED', step, 'no token', res);
  }
  toString(): string { return 'UseUnknown'; }
}

class NewSession implements fc.AsyncCommand<Model, Real> {
  check(m: Readonly<Model>): boolean { return current(m)?.status !== 'issued'; }
  async run(m: Model, r: Real): Promise<void> {
    r.steps.push('start a new session (consent, code exchange)');
    const s = await r.t.flows.userSession();
    m.entries.push({ token: s.refreshToken, issuedAt: m.now, status: 'issued' });
  }
  toString(): string { return 'NewSession'; }
}

describe('Refresh token', () => {
  conformance('REFRESH-SINGLE-USE', 'model-based: every refresh answer follows the refresh-token state machine',
    { needs: ['user-token', 'clock'], timeout: 120_000 },
    async (t) => {
      const canRevoke = t.target.has('revoke');
      const commands = [
        fc.constant(new RefreshCurrent()),
        fc.constant(new ReuseOld()),
        fc.constantFrom(HOUR, 30 * DAY, 200 * DAY, 367 * DAY).map((ms) => new AdvanceClock(ms)),
        fc.constant(new UseUnknown()),
        fc.constant(new NewSession()),
        ...(canRevoke ? [fc.constant(new Revoke())] : []),
      ];
      t.observe('revocation in the model', canRevoke);
      let blamed: string | null = null;
      await checkProperty(t, {
        rule: 'the refresh grant must follow the refresh-token state machine',
        arbitrary: fc.commands(commands, { maxCommands: 10 }),
        numRuns: 10,
        show: (cmds) => String(cmds),
        blame: () => blamed,
      }, async (cmds) => {
        const session = await t.flows.userSession();
        const now = await targetNow(t);
        const steps: string[] = [];
        const setup = () => ({ model: { entries: [{ token: session.refreshToken, issuedAt: now, status: 'issued' as Status }], now }, real: { t, steps } });
        try {
          await fc.asyncModelRun(setup, cmds);
          return null;
        } catch (err) {
          if (isPrerequisiteFailed(err)) throw err; // a step the model rests on (a new session): blocked, not a mismatch
          blamed = err instanceof ModelMismatch ? err.requirement : null;
          return `${err instanceof Error ? err.message : String(err)} (after: ${steps.join(' → ')})`;
        }
      });
    });
});
