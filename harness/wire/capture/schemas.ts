/**
 * What the capture server's control API accepts, validated with zod. An inbox's
 * answer must be one Node can send as it is: a final status (200–599), a
 * Location of visible ASCII only (no CR/LF: no header injection, no 500), and no
 * body where HTTP forbids one (204, 205, 304).
 */
import { z } from 'zod';
import { MAX_DELIVERIES, MAX_WAIT_MS } from './protocol.js';
import { PAGE_LIMIT } from './pages.js';

/** Statuses whose answers carry no body (RFC 9110 §15.3.5, §15.3.6, §15.4.5). */
const BODILESS = new Set([204, 205, 304]);

export const inboxResponseSchema = z
  .object({
    status: z.number().int().min(200).max(599).optional(), // a final answer: no 1xx
    location: z
      .string()
      .min(1)
      .max(2048)
      .regex(/^[\x21-\x7e]+$/, { error: 'must be visible ASCII (percent-encode anything else; no spaces, CR or LF)' })
      .refine((v) => URL.canParse(v), { error: 'must be an absolute URL' })
      .optional(),
    delayMs: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
    body: z.string().max(64 * 1024).optional(),
  })
  .strict()
  .refine((r) => r.body === undefined || !BODILESS.has(r.status ?? 200), {
    error: 'a 204, 205 or 304 answer cannot carry a body',
    path: ['body'],
  });

export const newInboxSchema = z
  .object({
    label: z.string().max(200).optional(),
    response: inboxResponseSchema.optional(),
  })
  .strict();

export const pollQuerySchema = z.object({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  min: z.coerce.number().int().min(0).max(MAX_DELIVERIES).default(0),
  timeoutMs: z.coerce.number().int().min(0).max(MAX_WAIT_MS).default(0),
  /** Most deliveries in the answer (a page); more follow when `more` is true. */
  limit: z.coerce.number().int().min(1).max(MAX_DELIVERIES).default(PAGE_LIMIT),
});
