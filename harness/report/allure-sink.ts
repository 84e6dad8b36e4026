/**
 * Labels, attachments and steps for the Allure drill-down. Everything handed in
 * here is already redacted. Without an Allure runtime (a plain vitest run), or in a
 * run without Allure results (--no-allure), the calls do nothing: allure-js-commons
 * would otherwise print a warning per call.
 */
import * as allure from 'allure-js-commons';
import type { Level, Requirement } from '../catalog/index.js';

export interface EvidenceSink {
  /** Labels the test for its declared requirement. */
  describe(req: Requirement): Promise<void>;
  /** Another requirement the test checks (t.check). */
  alsoChecks(req: Requirement): Promise<void>;
  attachJson(name: string, value: unknown): Promise<void>;
  /** A tag the drill-down can filter on (e.g. "warned: ID": the test passed, a SHOULD was not met). */
  flag(text: string): Promise<void>;
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
}

const SEVERITY: Record<Level, string> = { MUST: 'critical', SHOULD: 'normal', INFO: 'minor' };

/**
 * Whether the calls reach Allure: an Allure runtime is set up, and the run writes Allure
 * results. A run without them (--no-allure: LOCKCONF_NO_ALLURE=1, which the command sets
 * before vitest starts) records nothing here: its attachments (every exchange as JSON)
 * would travel to the reporter with each test and be thrown away.
 */
function active(): boolean {
  return typeof (globalThis as { allureTestRuntime?: unknown }).allureTestRuntime === 'function' && process.env.LOCKCONF_NO_ALLURE !== '1';
}

export const allureSink: EvidenceSink = {
  async describe(req) {
    if (!active()) return;
    await allure.epic(req.area);
    await allure.feature(req.section);
    await allure.story(req.id);
    await allure.severity(SEVERITY[req.level]);
    await allure.tag(req.level);
    await allure.parameter('level', req.level);
    await allure.parameter('source', req.source);
    await allure.description(`**${req.id}** (${req.level}, ${req.source}: ${req.section})\n\n> ${req.rule}`);
  },
  async alsoChecks(req) {
    if (!active()) return;
    await allure.story(req.id);
  },
  async attachJson(name, value) {
    if (!active()) return;
    await allure.attachment(name, JSON.stringify(value, null, 2), 'application/json');
  },
  async flag(text) {
    if (!active()) return;
    await allure.tag(text);
  },
  async step(name, fn) {
    if (!active()) return await fn();
    return await allure.step(name, () => fn());
  },
};

/** A sink that records nothing (tests of the runner, runs without reports). */
export const nullSink: EvidenceSink = {
  async describe() {},
  async alsoChecks() {},
  async attachJson() {},
  async flag() {},
  async step(_name, fn) {
    return await fn();
  },
};
