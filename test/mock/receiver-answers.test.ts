/** The mock names a receiver's answer the way the harness's domain does (the slice faults of `receiver-answer`). */
import { describe, expect, it } from 'vitest';
import { NAMED_RECEIVER_ANSWERS, receiverAnswerSlice } from '../../mock/webhooks/receiver-answers.js';
import { ANSWER_CLASSES, NAMED_ANSWERS, RECEIVER_ANSWER_VALUES, answerSlice, otherStatuses, statusOfSlice } from '../../harness/catalog/slices/receiver-answer-domain.js';

describe('receiver answers', () => {
  it('the mock\'s named edges are the domain\'s', () => {
    expect([...NAMED_RECEIVER_ANSWERS].sort()).toEqual(ANSWER_CLASSES.flatMap((c) => NAMED_ANSWERS[c]).sort());
  });

  it('every status from 200 to 599 falls in the same slice on both sides, and every slice is a declared value', () => {
    for (let status = 200; status <= 599; status++) {
      expect(receiverAnswerSlice(status)).toBe(answerSlice(status));
      const slice = answerSlice(status);
      if (slice !== null) expect(RECEIVER_ANSWER_VALUES).toContain(slice);
    }
    expect(receiverAnswerSlice(null)).toBeNull();
  });

  it('a drawn status is of its class, never a named edge nor 200, and the same for the same seed', () => {
    for (const cls of ANSWER_CLASSES) {
      for (const seed of [0, 1, 42, 123456789]) {
        const status = statusOfSlice(`other-${cls}`, seed);
        expect(otherStatuses(cls)).toContain(status);
        expect(statusOfSlice(`other-${cls}`, seed)).toBe(status);
      }
    }
    expect(statusOfSlice('404', 7)).toBe(404);
  });
});
