/**
 * The token response (spec: Resources → Token response), shared by the
 * authorization_code, client_credentials and refresh_token grants. Loose: a target
 * may add fields (token_type, scope, …) the spec does not list.
 */
import { z } from 'zod';

export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().min(1),
});

export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** An OAuth 2.0 error body (RFC 6749 §5.2): a JSON object with an `error` string. */
export const oauthErrorSchema = z.looseObject({
  error: z.string().min(1),
  error_description: z.string().optional(),
});

/** Zod's own explanation of what does not match, for failure messages. */
export function explain(result: { success: boolean; error?: z.ZodError }): string {
  return result.success || !result.error ? 'matches' : z.prettifyError(result.error);
}
