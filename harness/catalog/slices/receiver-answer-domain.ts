/**
 * The domain of a webhook receiver's final answer (slice dimension `receiver-answer`):
 * every HTTP status from 200 to 599, as data. Named edges are declared one by one
 * (each its own slice); every other status of a class is the slice `other-<class>`,
 * drawn once per run from the run's seed (fast-check), recorded and replayable.
 * 1xx is not a final answer; 200 is every inbox's default answer (the row slices judge it).
 */
import fc from 'fast-check';

export type AnswerClass = '2xx' | '3xx' | '4xx' | '5xx';

export const ANSWER_CLASSES: readonly AnswerClass[] = ['2xx', '3xx', '4xx', '5xx'];

/** The named edges of each class: the first and last code, the redirects, the answers services often retry. */
export const NAMED_ANSWERS: Readonly<Record<AnswerClass, readonly number[]>> = {
  '2xx': [201, 204, 299],
  '3xx': [300, 301, 302, 303, 307, 308],
  '4xx': [400, 401, 404, 410, 429],
  '5xx': [500, 502, 503, 599],
};

/** The statuses a slice `other-<class>` is drawn from: the class without its named edges (and without 200). */
export function otherStatuses(cls: AnswerClass): number[] {
  const low = Number(cls[0]) * 100;
  const named = new Set([200, ...NAMED_ANSWERS[cls]]);
  return Array.from({ length: 100 }, (_, i) => low + i).filter((s) => !named.has(s));
}

/** The class of a final status (null outside 200–599). */
export function answerClass(status: number): AnswerClass | null {
  if (!Number.isInteger(status) || status < 200 || status > 599) return null;
  return `${Math.floor(status / 100)}xx` as AnswerClass;
}

/** The slice a status belongs to: itself when named, else `other-<class>` (null for 200 and outside the domain). */
export function answerSlice(status: number): string | null {
  const cls = answerClass(status);
  if (cls === null || status === 200) return null;
  return NAMED_ANSWERS[cls].includes(status) ? String(status) : `other-${cls}`;
}

/** The generator of a slice `other-<class>`: a status of the class that is not a named edge. */
export function otherAnswerArbitrary(cls: AnswerClass): fc.Arbitrary<number> {
  return fc.constantFrom(...otherStatuses(cls));
}

/** The status a slice stands for in this run: a named edge as itself, `other-<class>` drawn with the seed. */
export function statusOfSlice(slice: string, seed: number): number {
  const m = /^other-([2-5]xx)$/.exec(slice);
  if (!m) return Number(slice);
  const cls = m[1] as AnswerClass;
  // One draw per class, seeded by the run's seed and the class (so the four classes draw independently).
  const [status] = fc.sample(otherAnswerArbitrary(cls), { seed: seed + ANSWER_CLASSES.indexOf(cls), numRuns: 1 });
  return status!;
}

/** Every slice value of the domain, in class order: the named edges, then `other-<class>`. */
export const RECEIVER_ANSWER_VALUES: readonly string[] = ANSWER_CLASSES.flatMap((cls) => [...NAMED_ANSWERS[cls].map(String), `other-${cls}`]);
