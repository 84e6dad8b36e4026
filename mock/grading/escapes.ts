/**
 * A graded mock's codes and refresh tokens end in characters URL-encoding changes
 * ("+", "/", "="), as its client secret and API key hold some: a form or query an
 * application builds without URL-encoding then alters them, and the grading sees
 * it (CLIENT-TOKEN-FORM-POST). A mock that does not grade issues them unchanged.
 */
import type { MockContext } from '../context.js';
import { GRADING_ESCAPES } from './inspect.js';

export function withGradingEscapes(ctx: Pick<MockContext, 'grading'>, value: string): string {
  return ctx.grading ? `${value}${GRADING_ESCAPES}` : value;
}
