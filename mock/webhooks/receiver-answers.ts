/**
 * The receiver's answer as the slice faults of DELIVERY-NO-RETRY, DELIVERY-NO-REDIRECT and
 * DELIVERY-ONE-POST name it (`receiver-answer=404`, `receiver-answer=other-4xx`): a named
 * edge as itself, any other status of its class as `other-<class>`. The named edges are
 * the harness's (harness/catalog/slices/receiver-answer-domain.ts), repeated here because
 * the mock stands alone; test/mock/receiver-answers.test.ts holds the two lists equal.
 */
export const NAMED_RECEIVER_ANSWERS: readonly number[] = [
  201, 204, 299,
  300, 301, 302, 303, 307, 308,
  400, 401, 404, 410, 429,
  500, 502, 503, 599,
];

/** The slice value of a receiver's answer; null for 200 (every receiver's default), no answer, or outside 200–599. */
export function receiverAnswerSlice(status: number | null): string | null {
  if (status === null || status === 200 || status < 200 || status > 599) return null;
  return NAMED_RECEIVER_ANSWERS.includes(status) ? String(status) : `other-${Math.floor(status / 100)}xx`;
}
