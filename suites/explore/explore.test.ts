/**
 * Exploration of the whole protocol (issue 33): random sequences of every operation a
 * client can make and every control step, each answer judged by the executable model of
 * the spec (harness/model). Within the default budget on every run (LOCKCONF_EXPLORE to
 * go deeper); a failure is reported as the requirement the model's rule names, with the
 * shrunk sequence as a numbered, redacted story; the run's --seed replays it, and
 * LOCKCONF_EXPLORE_PATH (the path the failure reports) goes straight to it.
 *
 * One exploration per run, reported by one test per area of the rules it judges, so a
 * run narrowed to an area (--only, the self-verification matrix) still explores and
 * reports what it found in that area.
 */
import { describe } from 'vitest';
import { conformance, countResetOfThisRun } from '../../harness/service/conformance.js';
import { requirement } from '../../harness/catalog/index.js';
import { RULES } from '../../harness/model/index.js';
import { newInbox, type SuiteContext } from '../support/context.js';
import { ARRIVAL_TIMEOUT_MS, QUIET_WINDOW_MS } from '../support/deliveries.js';
import { statusCheckRoute } from '../support/status-check.js';
import { runSeed } from '../support/property.js';
import { explore, parseBudget, type Exploration } from './explorer.js';
import { harnessPort } from './port.js';

/** The exploration of this run (every area test reports from it; the first to run carries it out). */
let shared: Promise<Exploration> | null = null;

function exploration(t: SuiteContext): Promise<Exploration> {
  shared ??= (async () => {
    const f = t.target.fixtures;
    const port = harnessPort({
      profile: t.target.profile,
      second: f?.clients?.[0] ?? null,
      users: f?.users.length ?? 1,
      http: t.http,
      flows: t.flows,
      control: t.control,
      redactor: t.target.redactor,
      has: (c) => t.target.has(c),
      countReset: countResetOfThisRun,
      hooks: {
        fixtures: f ?? null,
        newInbox: t.target.has('capture') ? (label) => newInbox(t, { label }) : null,
        statusRoute: (lockId) => statusCheckRoute(t, lockId),
        waitMs: ARRIVAL_TIMEOUT_MS,
        quietMs: QUIET_WINDOW_MS,
      },
    });
    const budget = parseBudget(process.env.LOCKCONF_EXPLORE) ?? undefined;
    const path = process.env.LOCKCONF_EXPLORE_PATH?.trim() || undefined;
    const protocolPhase = protocolPhaseUnread(process.env.LOCKCONF_SELECTION);
    return explore(port, { seed: runSeed(t), ...(budget ? { budget } : {}), ...(path ? { path } : {}), ...(protocolPhase ? { protocolPhase } : {}) });
  })();
  return shared;
}

/**
 * Why the protocol phase can be left out: the selection (--only, LOCKCONF_SELECTION) runs none
 * of the tests that report it (the protocol areas' below), only webhook areas'. Its sequences
 * judge no webhook rule, and the webhook phase draws its own (seed + 1) from a reset target:
 * what a webhook area is told is the same without it. null: it runs (no selection, or one it reaches).
 */
function protocolPhaseUnread(selection: string | undefined): string | null {
  if (!selection) return null;
  let ids: unknown;
  try {
    ids = JSON.parse(selection);
  } catch {
    return null;
  }
  if (!Array.isArray(ids) || ids.some((id) => PROTOCOL_ANCHORS.includes(id))) return null;
  return 'the selection runs no test that reports them (only webhook areas\' exploration: their sequences mix in refreshes, API calls and sessions)';
}

/** The model's requirements in the area of `anchor`, the anchor first. */
function areaOf(anchor: string): string[] {
  const area = requirement(anchor).area;
  const ids = [...new Set(Object.values(RULES).map((r) => r.id).filter((id) => requirement(id).area === area))];
  return [anchor, ...ids.filter((id) => id !== anchor)];
}

/** Reports the run's exploration for the model's requirements of one area (`hooks`: an area the webhook sequences judge). */
async function reportArea(t: SuiteContext, ids: readonly string[], hooks = false): Promise<void> {
  if (!t.target.has('consent') && !t.target.has('control')) t.notTested('exploration needs a way to obtain tokens in every sequence: the consent hook or the control protocol');
  const x = await exploration(t);
  t.observe('exploration', {
    seed: x.seed, replay: `--seed ${x.seed}`, budget: x.budget, sequences: x.sequences, commands: x.commands,
    hookSequences: x.hookSequences, hookCommands: x.hookCommands, shrinks: x.shrinks, interrupted: x.interrupted,
  });
  if (hooks && x.hookSequences === 0 && !x.finding && !x.error) {
    const why = x.leftOut.find((l) => l.operation.startsWith('webhook'))?.reason ?? 'an earlier finding ended the exploration before its webhook sequences';
    t.notTested(`the webhook sequences did not run: ${why}`);
  }
  if (x.leftOut.length > 0) t.observe('exploration: operations left out', x.leftOut);
  if (x.error) throw new Error(`exploration could not run a sequence: ${x.error}`);
  const f = x.finding;
  if (!f || !ids.includes(f.requirement)) return;
  t.observe('exploration: shrunk sequence', f.story);
  const message = `${f.requirement} ("${f.sentence}"): ${f.message}. Shrunk sequence:\n${f.story.join('\n')}\n(fast-check seed ${x.seed}, path ${f.path ?? '?'}; replay with --seed ${x.seed} LOCKCONF_EXPLORE_PATH=${f.path ?? ''})`;
  if (f.requirement === t.requirement.id) t.expect.unreachable(message);
  else await t.check(f.requirement, () => t.expect.unreachable(message));
}

const OPTIONS = { needs: ['user-token'] as const, timeout: 180_000 };
const oauth = areaOf('OAUTH-CODE-ON-APPROVAL');
const token = areaOf('TOKEN-RESPONSE-SHAPE');
const cc = areaOf('TOKEN-CC-DISABLED-BY-DEFAULT');
const refresh = areaOf('REFRESH-SINGLE-USE');
const headers = areaOf('HEADERS-PREVIOUS-TOKEN-VALID');
const registration = areaOf('WEBHOOK-LOCK-OVERWRITE');
const delivery = areaOf('DELIVERY-CUSTOM-HEADER');
const signature = areaOf('SIGNATURE-VALID');
const HOOK_OPTIONS = { ...OPTIONS, needs: [...OPTIONS.needs, 'capture' as const] };
/** The tests that report the protocol phase's findings (the webhook phase's are reported by every area's test). */
const PROTOCOL_ANCHORS: readonly unknown[] = [oauth[0], token[0], cc[0], refresh[0], headers[0]];

describe('Exploration: random sequences judged by the model of the spec', () => {
  conformance('OAUTH-CODE-ON-APPROVAL', 'exploration: random sequences of operations, judged by the model of the spec (OAuth authorization)', { ...OPTIONS, needs: [...OPTIONS.needs], also: oauth.slice(1) }, (t) => reportArea(t, oauth));
  conformance('TOKEN-RESPONSE-SHAPE', 'exploration: random sequences of operations, judged by the model of the spec (Token endpoint)', { ...OPTIONS, needs: [...OPTIONS.needs], also: token.slice(1) }, (t) => reportArea(t, token));
  conformance('TOKEN-CC-DISABLED-BY-DEFAULT', 'exploration: random sequences of operations, judged by the model of the spec (Client credentials)', { ...OPTIONS, needs: [...OPTIONS.needs], also: cc.slice(1) }, (t) => reportArea(t, cc));
  conformance('REFRESH-SINGLE-USE', 'exploration: random sequences of operations, judged by the model of the spec (Refresh tokens)', { ...OPTIONS, needs: [...OPTIONS.needs], also: refresh.slice(1) }, (t) => reportArea(t, refresh));
  conformance('HEADERS-PREVIOUS-TOKEN-VALID', 'exploration: random sequences of operations, judged by the model of the spec (API headers)', { ...OPTIONS, needs: [...OPTIONS.needs], also: headers.slice(1) }, (t) => reportArea(t, headers));
  conformance('WEBHOOK-LOCK-OVERWRITE', 'exploration: random sequences of registrations, overwrites, deletions and events, judged by the model of the spec (Webhook registration)', { ...HOOK_OPTIONS, also: registration.slice(1) }, (t) => reportArea(t, registration, true));
  conformance('DELIVERY-CUSTOM-HEADER', 'exploration: random sequences of registrations, overwrites, deletions and events, judged by the model of the spec (Webhook delivery)', { ...HOOK_OPTIONS, also: delivery.slice(1) }, (t) => reportArea(t, delivery, true));
  conformance('SIGNATURE-VALID', 'exploration: random sequences of registrations, overwrites, deletions and events, judged by the model of the spec (Webhook signature)', { ...HOOK_OPTIONS, also: signature.slice(1) }, (t) => reportArea(t, signature, true));
});
