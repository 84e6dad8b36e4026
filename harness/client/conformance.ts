/**
 * conformance() for the client run: declares the test of one CLIENT- requirement
 * ("<ID>: <title>"), whose body reads the requirement's judgement (judge.ts, made
 * once by global setup from the grading mock's recording) and settles it through
 * the same runner as every conformance test (harness/run/conformance-runner.ts):
 * violations fail a MUST and warn a SHOULD; a rule the application never
 * exercised is not tested, with the reason.
 *
 *   conformance('CLIENT-CODE-ONCE', 'no authorization code is exchanged twice');
 */
import { inject, test } from 'vitest';
import { requirement } from '../catalog/index.js';
import { allureSink } from '../report/allure-sink.js';
import { runConformanceTest, type RunnerDeps, type TestSession } from '../run/conformance-runner.js';
import { targetFromSetup } from '../service/target.js';
import type { LockconfFlows } from '../wire/oauth-flows.js';
import type { HttpClientLike } from '../contracts.js';
import type {} from './provided-context.js';
import type {} from '../service/provided-context.js';

export function conformance(id: string, title: string): void {
  requirement(id); // an unknown ID fails at collection
  test(`${id}: ${title}`, async (ctx) => {
    await runConformanceTest(id, {}, async (t) => {
      const run = inject('lockconfClient');
      const judged = run.judgements.find((j) => j.id === id);
      if (!judged) throw new Error(`${id}: no judgement (the grading found no rule of that ID)`);
      if (judged.status === 'not-tested' && !judged.slices?.some((s) => s.status !== 'not-tested')) t.notTested(judged.reason);
      t.observe('requests checked', judged.checked);
      if (judged.evidence.length) t.observe('recorded requests', judged.evidence);
      // Each declared slice is its own check (harness/catalog/slices/client.ts); what no slice holds is checked as a whole.
      for (const slice of judged.slices ?? []) {
        await t.slice({ [slice.dim]: slice.value }, () => {
          if (slice.status === 'not-tested') t.notTested(slice.reason);
          t.expect(slice.violations, `${id} on ${slice.dim}=${slice.value}: requests of the application that break the rule`).toEqual([]);
        });
      }
      const sliced = new Set((judged.slices ?? []).flatMap((s) => s.violations));
      t.expect(judged.violations.filter((v) => !sliced.has(v)), `${id}: requests of the application that break the rule`).toEqual([]);
    }, ctx, RUNTIME);
  });
}

/** Nothing here talks to a target: the judgement is made; the session is empty. */
const noHttp: HttpClientLike = {
  request: () => Promise.reject(new Error('a client judgement sends no request')),
  api: () => Promise.reject(new Error('a client judgement sends no request')),
  exchanges: () => [],
};

const RUNTIME: RunnerDeps = {
  target: () => targetFromSetup(inject('lockconf')),
  session: async (target): Promise<TestSession> => ({
    target,
    redactor: target.redactor,
    http: noHttp,
    capture: { newInbox: () => Promise.reject(new Error('a client judgement receives no delivery')) },
    control: null,
    flows: {} as LockconfFlows,
    prepare: async () => {},
  }),
  sink: allureSink,
};
