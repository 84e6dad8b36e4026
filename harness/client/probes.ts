/**
 * The active probes of client grading: lockconf plays the user's browser at the
 * application (its connect URL), acts as the user at the mock's consent step
 * (control POST /consent) and has the mock play the adversary. One family per
 * file under probes/:
 *   session          sign in, the page, every action, the page, four refreshes (a chain of five
 *                    tokens: later links count), the page and the actions again: the ordinary life
 *   state            probes/state.ts: redirects back whose state is not the one in progress, in the flow's
 *                    browser and in one without the application's cookie
 *   cancellation     probes/cancellation.ts: cancellation redirects whose state is not the one in progress
 *   denial           the user cancels: no code exchange may follow
 *   api-401          probes/api-401.ts: a 401 on the page's call, then on each kind of call
 *   refresh-refused  the mock refuses the app's next refresh (400): the token must not be presented again
 *   refresh-in-flight probes/timing.ts: a double submit of the refresh, two in flight at once (with the session family)
 *   reload           probes/timing.ts: the page the redirect back landed on reloaded (with the session family)
 *   reached-as       probes/reached-as.ts: the connect URL opened under another loopback name (with the session family)
 * The browser is a driver (harness/client/drivers/); its steps are in probe-steps.ts. Markers in the
 * mock's recording (POST /_control/grading/mark) delimit each probe for the judge.
 * Nothing a probe sees (codes, state, URLs with them) goes into its messages.
 */
import type { ProbeReport } from './judge.js';
import { canRefresh, openDriver } from './drivers/open.js';
import type { Driver } from './drivers/driver.js';
import { ContentScan } from './drivers/content-scan.js';
import type { ProbeTarget } from './probe-target.js';
import { authorize, control, failed, marked, signIn } from './probe-steps.js';
import { FLOW_POINTS, api401Family, api401Points, pageProbe } from './probes/api-401.js';
import { CHECK_ANSWERS, failedCheckFamily } from './probes/failed-check.js';
import { tokenErrorFamily, tokenErrorPlan } from './probes/token-errors.js';
import { ANSWER_PROBES, answerOf, answersFamily } from './probes/answers.js';
import { stateFamily, stateProbePlan, type StateSelection } from './probes/state.js';
import { CANCELLATION_TAMPERS, cancellationFamily } from './probes/cancellation.js';
import { refreshInFlightProbe, reloadCallbackProbe } from './probes/timing.js';
import { reachedAsProbe } from './probes/reached-as.js';
import { ENDPOINT } from '../catalog/slices/dimensions.js';

export type { ProbeTarget } from './probe-target.js';
export { Browser } from './drivers/http.js';
export { signIn } from './probe-steps.js';

/** How many times the session refreshes: a chain of REFRESH_LINKS + 1 refresh tokens. */
export const REFRESH_LINKS = 4;

/** Which probes to run (default: all); a probe left out is reported as not run, with the reason. */
export interface ProbeSelection {
  session?: boolean;
  /** The state family, or the part of it over these tampers and flow ends. */
  state?: boolean | StateSelection;
  /** The cancellation family, or its probes of these states. */
  cancellation?: boolean | readonly string[];
  denial?: boolean;
  api401?: boolean;
  /** The 401 family, or its probes of these endpoints. */
  api401Family?: boolean | readonly string[];
  /** The 401 at each point of a flow, or at these points (after-sign-in, after-refresh, drawn-call). */
  api401Points?: boolean | readonly string[];
  failedCheck?: boolean | readonly number[];
  tokenErrors?: boolean;
  refreshRefused?: boolean;
  /** The double submit of the refresh (two refreshes in flight). */
  refreshInFlight?: boolean;
  /** The reload of the page the redirect back landed on (the callback again, same code and state). */
  reload?: boolean;
  /** The answers family (another 2xx to a write, its body kept or none, with a new x-access-token), or these of its probes (answers.ts ANSWER_PROBES). */
  answers?: boolean | readonly string[];
  /** The connect URL opened under another loopback name for the same address (the Host the browser sends). */
  reachedAs?: boolean;
}

const LEFT_OUT = { ran: false as const, why: 'left out of this run\'s probe selection' };

/** Every probe family reported not run, for one reason (a profile without connectUrl: nothing can be driven). */
export function notRunReport(why: string): ProbeReport {
  return {
    session: { ran: false, why },
    state: stateProbePlan().map((p) => ({ ...p, ran: false as const, why })),
    cancellation: CANCELLATION_TAMPERS.map((tamper) => ({ tamper, ran: false as const, why })),
    denial: { ran: false, why },
    api401: { ran: false, why },
    api401Family: ENDPOINT.values.map((endpoint) => ({ endpoint, ran: false as const, why })),
    api401Points: FLOW_POINTS.map((point) => ({ point, ran: false as const, why })),
    failedCheck: CHECK_ANSWERS.map((status) => ({ status, ran: false as const, why })),
    tokenErrors: tokenErrorPlan().map((p) => ({ ...p, ran: false as const, why })),
    refreshRefused: { ran: false, why },
    refreshInFlight: { ran: false, why },
    reload: { ran: false, why },
    reachedAs: { ran: false, why },
    answers: ANSWER_PROBES.map((probe) => ({ probe, ...answerOf(probe), ran: false as const, why })),
    browser: { ran: false, why },
  };
}

/**
 * The ordinary life: sign in, the page, every action, the page, the refresh chain, the page and
 * the actions again. An error answer to a step (a form POST answered 403) is said at that step,
 * in this family's report only: the rules its actions and refreshes feed name it.
 */
async function sessionFamily(target: ProbeTarget): Promise<ProbeReport['session']> {
  let browser: Driver | null = null;
  try {
    const driver = (browser = await openDriver(target));
    await marked(target, 'session', async () => {
      const home = await signIn(target, driver);
      await driver.browse(home);
      await driver.act();
      await driver.browse(home);
      if (driver.canRefresh) {
        for (let link = 0; link < REFRESH_LINKS; link++) await driver.refresh();
        await driver.browse(home);
        await driver.act();
        await driver.browse(home);
      }
    });
    return driver.errorAnswers.length ? { ran: true, errorAnswers: [...driver.errorAnswers] } : { ran: true };
  } catch (err) {
    // The passive rules judge whatever the session left in the recording; the rules its actions feed say where it stopped.
    const stopped = failed(err);
    const answers = browser?.errorAnswers ?? [];
    return answers.length ? { ran: false, why: `${stopped.why}; before that, ${answers.join('; ')}` } : stopped;
  }
}

/** What a family's end line says: "ran", "did not run", or how many of its probes ran. */
function outcome(result: unknown): string {
  if (Array.isArray(result)) return `${result.filter((p: { ran: boolean }) => p.ran).length} of ${result.length} probes ran`;
  return (result as { ran?: boolean } | undefined)?.ran ? 'ran' : 'did not run';
}

/** Runs the probes against the application; what each did, for the judge. */
export async function runProbes(given: ProbeTarget, select: ProbeSelection = {}): Promise<ProbeReport> {
  const report: ProbeReport = {};
  // Every answer the application sends the probes' browser is scanned for its credentials.
  const scan = given.credentials ? new ContentScan(given.credentials) : null;
  const target: ProbeTarget = { ...given, scan };
  const noRefresh = 'the profile names no refreshUrl (an address of the application that makes it refresh now)';
  const on = (part: unknown) => part !== false;
  // A line as each family starts and ends: a browser grading takes minutes and would otherwise say nothing.
  const family = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    given.progress?.(`probes: ${name} started`);
    const result = await run();
    given.progress?.(`probes: ${name} ended, ${outcome(result)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return result;
  };

  report.session = on(select.session) ? await family('session', () => sessionFamily(target)) : LEFT_OUT;

  report.state = on(select.state)
    ? await family('state', () => stateFamily(target, typeof select.state === 'object' ? select.state : {}))
    : stateProbePlan().map((p) => ({ ...p, ...LEFT_OUT }));
  report.cancellation = on(select.cancellation)
    ? await family('cancellation', () => cancellationFamily(target, Array.isArray(select.cancellation) ? select.cancellation : undefined))
    : CANCELLATION_TAMPERS.map((tamper) => ({ tamper, ...LEFT_OUT }));

  report.denial = !on(select.denial) ? LEFT_OUT : await family('denial', async () => {
    try {
      const browser = await openDriver(target);
      await marked(target, 'denial', async () => {
        const back = await authorize(target, browser, 'deny');
        await browser.browse(back);
      });
      return { ran: true as const };
    } catch (err) {
      return failed(err);
    }
  });

  report.api401 = on(select.api401) ? await family('api-401 (the page)', () => pageProbe(target)) : LEFT_OUT;
  report.api401Family = on(select.api401Family)
    ? await family('api-401 (each call)', () => api401Family(target, Array.isArray(select.api401Family) ? select.api401Family : undefined))
    : ENDPOINT.values.map((endpoint) => ({ endpoint, ...LEFT_OUT }));
  report.api401Points = on(select.api401Points)
    ? await family('api-401 (points of a flow)', () => api401Points(target, Array.isArray(select.api401Points) ? select.api401Points : undefined))
    : FLOW_POINTS.map((point) => ({ point, ...LEFT_OUT }));
  report.failedCheck = on(select.failedCheck)
    ? await family('failed-check (the call after a refresh refused)', () => failedCheckFamily(target, Array.isArray(select.failedCheck) ? select.failedCheck : undefined))
    : CHECK_ANSWERS.map((status) => ({ status, ...LEFT_OUT }));
  report.tokenErrors = on(select.tokenErrors)
    ? await family('token-errors (the token endpoint failing)', () => tokenErrorFamily(target))
    : tokenErrorPlan().map((p) => ({ ...p, ...LEFT_OUT }));

  if (!on(select.refreshRefused)) report.refreshRefused = LEFT_OUT;
  else if (!canRefresh(target)) report.refreshRefused = { ran: false, why: noRefresh };
  else {
    report.refreshRefused = await family('refresh-refused', async () => {
      try {
        const browser = await openDriver(target);
        await signIn(target, browser);
        await marked(target, 'refresh-refused', async () => {
          await control(target, '/grading/probe', { kind: 'refresh-refused' });
          await browser.refresh();
          await browser.refresh();
        });
        return { ran: true as const };
      } catch (err) {
        return failed(err);
      }
    });
  }
  report.refreshInFlight = on(select.refreshInFlight) ? await family('refresh-in-flight', () => refreshInFlightProbe(target)) : LEFT_OUT;
  report.reload = on(select.reload) ? await family('reload', () => reloadCallbackProbe(target)) : LEFT_OUT;
  report.reachedAs = on(select.reachedAs) ? await family('reached-as (another name for the application)', () => reachedAsProbe(target)) : LEFT_OUT;
  report.answers = on(select.answers)
    ? await family('answers', () => answersFamily(target, Array.isArray(select.answers) ? select.answers : undefined))
    : ANSWER_PROBES.map((probe) => ({ probe, ...answerOf(probe, target.seed ?? 0), ...LEFT_OUT }));
  report.browser = scan ? { ran: true, ...(await scan.settled()) } : { ran: false, why: 'the probes were not given the credentials to look for' };
  return report;
}
