/**
 * Typed errors of the harness. Callers branch on `code`, never on message text
 * (the CLI maps codes to exit status 2 and a clear message). Messages never
 * carry a secret value: they name fields, not their contents.
 */

export type ErrorCode =
  | 'ERR_PROFILE_INVALID'
  | 'ERR_USAGE'
  | 'ERR_TARGET_UNREACHABLE'
  | 'ERR_CAPABILITY_MISSING'
  | 'ERR_DELIVERY_TIMEOUT'
  | 'ERR_CONTROL'
  | 'ERR_CAPTURE'
  | 'ERR_TOKEN_CACHE'
  | 'ERR_LOGIN'
  | 'ERR_CREDENTIALS_REFUSED'
  | 'ERR_API_KEY_REFUSED'
  | 'ERR_TARGET_BUSY'
  | 'ERR_RUN_DIR_BUSY'
  | 'ERR_CONTROL_TOKEN_REFUSED'
  | 'ERR_ANSWER_TOO_LARGE'
  | 'ERR_SETUP_FAILED';

export class LockconfError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LockconfError';
    this.code = code;
  }
}

/** True when `err` is a LockconfError (optionally with the given code). */
export function isLockconfError(err: unknown, code?: ErrorCode): err is LockconfError {
  return err instanceof LockconfError && (code === undefined || err.code === code);
}
