import { describe, expect, it } from 'vitest';
import { RunGate } from '../../../harness/run/gate.js';

/** Lets every settled promise run its continuation. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

function gateOf(n: number) {
  const events: string[] = [];
  const gate = new RunGate(Array.from({ length: n }, (_, i) => `set${i}`), {
    reset: async () => {
      events.push('reset');
    },
    afterExclusive: async () => {
      events.push('clock back');
    },
  });
  return { gate, events };
}

describe('run gate: leases', () => {
  it('starts with every set used: the first lease resets the target once, before anything runs', async () => {
    const { gate, events } = gateOf(2);
    expect(gate.sets).toEqual(['used', 'used']);
    const [a, b] = await Promise.all([gate.lease(), gate.lease()]);
    expect([a.set, b.set, events]).toEqual(['set0', 'set1', ['reset']]);
  });

  it('hands out each clean set once, side by side', async () => {
    const { gate } = gateOf(3);
    const a = await gate.lease();
    const b = await gate.lease();
    expect([a.set, b.set]).toEqual(['set0', 'set1']);
    expect(gate.holders).toEqual({ shared: 2, exclusive: false });
    expect(gate.sets).toEqual(['leased', 'leased', 'clean']);
    a.release();
    expect(gate.sets).toEqual(['used', 'leased', 'clean']);
    expect(gate.holders).toEqual({ shared: 1, exclusive: false });
  });

  it('a release is idempotent (a failure hook and the end of the body may both release)', async () => {
    const { gate } = gateOf(2);
    const a = await gate.lease();
    a.release();
    a.release();
    expect(gate.holders).toEqual({ shared: 0, exclusive: false });
  });

  it('with no clean set left, waits until none is leased, then resets every set once, alone', async () => {
    const { gate, events } = gateOf(2);
    const a = await gate.lease();
    const b = await gate.lease();
    expect(events).toEqual(['reset']);
    let third: string | null = null;
    let fourth: string | null = null;
    void gate.lease().then((l) => (third = l.set));
    void gate.lease().then((l) => (fourth = l.set));
    await tick();
    a.release();
    await tick();
    expect([third, fourth, events]).toEqual([null, null, ['reset']]); // b still runs on its set
    b.release();
    for (let i = 0; i < 5; i++) await tick();
    expect(events).toEqual(['reset', 'reset']);
    expect([third, fourth]).toEqual(['set0', 'set1']);
    expect(gate.log).toEqual(['reset', 'lease 0', 'lease 1', 'release 0', 'release 1', 'reset', 'lease 0', 'lease 1']);
  });

  it('a single set is leased, used, reset, leased again: one test at a time', async () => {
    const { gate, events } = gateOf(1);
    const a = await gate.lease();
    a.release();
    const b = await gate.lease();
    expect([b.set, events]).toEqual(['set0', ['reset', 'reset']]);
  });

  it('needs at least one set', () => {
    expect(() => new RunGate([], { reset: async () => {} })).toThrow('at least one set');
  });
});

describe('run gate: exclusive phases', () => {
  it('an exclusive test waits for the leased tests to end and holds back later leases', async () => {
    const { gate } = gateOf(4);
    const a = await gate.lease();
    const order: string[] = [];
    const exclusive = gate.exclusive().then((release) => {
      order.push('exclusive');
      return release;
    });
    const later = gate.lease().then((l) => {
      order.push(`lease ${l.set}`);
      return l;
    });
    await tick();
    expect(order).toEqual([]); // first come, first served: the later lease waits behind the exclusive test
    a.release();
    const release = await exclusive;
    await tick();
    expect(order).toEqual(['exclusive']);
    expect(gate.holders).toEqual({ shared: 0, exclusive: true });
    // An exclusive test may have changed anything: the sets not leased count as used.
    expect(gate.sets).toEqual(['used', 'used', 'used', 'used']);
    release();
    const l = await later;
    expect(order).toEqual(['exclusive', 'lease set0']);
    expect(gate.log.filter((e) => e === 'reset')).toEqual(['reset', 'reset']);
    l.release();
  });

  it('two exclusive tests never overlap', async () => {
    const { gate } = gateOf(2);
    const first = await gate.exclusive();
    let second = false;
    const next = gate.exclusive().then((r) => {
      second = true;
      return r;
    });
    await tick();
    expect(second).toBe(false);
    first();
    (await next)();
    expect(second).toBe(true);
    expect(gate.holders).toEqual({ shared: 0, exclusive: false });
  });

  it("a leased test's exclusive phase waits for the others, keeps its set, and brings the clock back", async () => {
    const { gate, events } = gateOf(3);
    const a = await gate.lease();
    const b = await gate.lease();
    let inside: { shared: number; exclusive: boolean } | null = null;
    const phase = a.exclusive(async () => {
      inside = gate.holders;
      events.push('clock moved');
      return 42;
    });
    await tick();
    expect(inside).toBeNull(); // b still holds its set
    b.release();
    expect(await phase).toBe(42);
    expect(inside).toEqual({ shared: 0, exclusive: true });
    expect(events).toEqual(['reset', 'clock moved', 'clock back']);
    expect(gate.sets).toEqual(['leased', 'used', 'used']);
    expect(gate.holders).toEqual({ shared: 1, exclusive: false }); // a holds its set again
    a.release();
    expect(gate.holders).toEqual({ shared: 0, exclusive: false });
  });
});

describe('run gate: a leased test\'s exclusive phase lets the others go first', () => {
  function yieldingGate(n: number, yieldMs: number) {
    const events: string[] = [];
    const gate = new RunGate(Array.from({ length: n }, (_, i) => `set${i}`), {
      reset: async () => { events.push('reset'); },
      afterExclusive: async () => { events.push('clock back'); },
      yieldMs,
    });
    return { gate, events };
  }

  it('tests that lease after it still start; its phase runs once no lease is held', async () => {
    const { gate, events } = yieldingGate(4, 10_000);
    const a = await gate.lease();
    const b = await gate.lease();
    const phase = a.exclusive(async () => {
      events.push(`alone with ${gate.holders.shared} leases`);
    });
    await tick();
    const c = await gate.lease(); // not held back behind the waiting phase
    expect(c.set).toBe('set2');
    b.release();
    await tick();
    expect(events).toEqual(['reset']);
    c.release();
    await phase;
    expect(events).toEqual(['reset', 'alone with 0 leases', 'clock back']);
    expect(gate.holders).toEqual({ shared: 1, exclusive: false });
    a.release();
  });

  it('takes its place in line after yieldMs, first come first served again', async () => {
    const { gate, events } = yieldingGate(3, 20);
    const a = await gate.lease();
    const b = await gate.lease();
    const phase = a.exclusive(async () => { events.push('alone'); });
    await new Promise((resolve) => setTimeout(resolve, 40));
    let later = false;
    const c = gate.lease().then((lease) => { later = true; return lease; });
    await tick();
    expect(later).toBe(false); // the phase is in line now: the later lease waits behind it
    b.release();
    await phase;
    expect(events).toEqual(['reset', 'alone', 'clock back']);
    a.release(); // the phase marked the sets not leased as used: c waits for the next reset
    (await c).release();
    expect(events).toEqual(['reset', 'alone', 'clock back', 'reset']);
  });
});
