/** Request bodies of the control protocol (control-protocol.md), validated with zod. */
import { z } from 'zod';

const id = z.string().min(1).max(256);

export const ConsentBody = z.strictObject({
  authorizationUrl: z.string().min(1).max(16_384),
  userId: id,
  decision: z.enum(['approve', 'deny']),
});

/**
 * How far the mock's clock may run ahead of real time, all advances together: a
 * thousand years, enough for any expiry the spec names, far from where a Date or
 * a JWT's exp stops working. Beyond it POST /clock answers 422 (control/index.ts).
 */
export const MAX_CLOCK_OFFSET_MS = 1000 * 366 * 24 * 60 * 60 * 1000;

export const ClockBody = z.union([
  z.strictObject({ advanceMs: z.number().min(0) }),
  z.strictObject({ reset: z.literal(true) }),
]);

export const EventBody = z.strictObject({
  kind: z.string().min(1).max(64),
  lockId: id.optional(),
  userId: id.optional(),
  value: z.string().max(1024).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

export const RevokeBody = z.strictObject({ refreshToken: z.string().min(1).max(4096) });

export const ClientCredentialsBody = z.strictObject({ clientId: id, enabled: z.boolean() });

/** POST /lease (control-protocol-extensions.md): a run ID and how long the lease lasts unless renewed (1 s to 10 min). */
export const LeaseBody = z.strictObject({
  runId: z.string().min(1).max(200).regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
  ttlMs: z.number().int().min(1000).max(600_000),
});
