/**
 * Every requirement of the webhook areas states, for each fixture kind (credential, lock,
 * actor), its dimension or the words of its sentence that restrict it (issue 32); a kind
 * that states neither is a listed, reasoned gap (WEBHOOK_FIXTURE_KINDS_PENDING), never silent.
 */
import { describe, expect, it } from 'vitest';
import { SERVICE_CATALOG } from '../../../harness/catalog/index.js';
import { declaredValues } from '../../../harness/catalog/slices/index.js';
import { WEBHOOK_FIXTURE_KINDS, WEBHOOK_FIXTURE_KINDS_PENDING, type FixtureKind } from '../../../harness/catalog/slices/fixture-kinds-webhooks.js';
import { readFileSync } from 'node:fs';

const AREAS = new Set(['Webhook registration', 'Webhook delivery', 'Webhook signature', 'Event payloads']);
const KINDS: readonly FixtureKind[] = ['credential', 'lock', 'actor'];
const REQUIREMENTS = SERVICE_CATALOG.filter((r) => AREAS.has(r.area));
const SPEC = readFileSync(new URL('../../../docs/spec/lock-access-service.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const CONTROL = readFileSync(new URL('../../../docs/control-protocol.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('fixture kinds of the webhook areas', () => {
  it('every requirement states each kind: its dimension, the words that restrict it, or a listed gap', () => {
    const missing: string[] = [];
    for (const r of REQUIREMENTS) {
      for (const kind of KINDS) {
        const stated = WEBHOOK_FIXTURE_KINDS[r.id]?.[kind];
        const pending = WEBHOOK_FIXTURE_KINDS_PENDING[r.id]?.[kind];
        if (!stated && !pending) missing.push(`${r.id}: ${kind}`);
        if (stated && pending) missing.push(`${r.id}: ${kind} is both stated and pending`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only requirements of these areas', () => {
    const ids = new Set(REQUIREMENTS.map((r) => r.id));
    expect([...Object.keys(WEBHOOK_FIXTURE_KINDS), ...Object.keys(WEBHOOK_FIXTURE_KINDS_PENDING)].filter((id) => !ids.has(id))).toEqual([]);
  });

  it('a dimension stated is one the requirement declares slices over', () => {
    const wrong = Object.entries(WEBHOOK_FIXTURE_KINDS).flatMap(([id, kinds]) => Object.entries(kinds)
      .filter(([, s]) => 'dimension' in s && declaredValues(id, s.dimension).length === 0)
      .map(([kind, s]) => `${id}: ${kind} → ${(s as { dimension: string }).dimension}`));
    expect(wrong).toEqual([]);
  });

  it('the words that restrict a kind are the spec\'s (or the control protocol\'s) own, verbatim', () => {
    const notFound = Object.entries(WEBHOOK_FIXTURE_KINDS).flatMap(([id, kinds]) => Object.entries(kinds)
      .filter(([, s]) => 'restrictedBy' in s)
      .flatMap(([kind, s]) => (s as { restrictedBy: string }).restrictedBy.split(' … '))
      .filter((words) => !SPEC.includes(words) && !CONTROL.includes(words))
      .map((words) => `${id}: "${words}"`));
    expect(notFound).toEqual([]);
  });
});
