/**
 * What a receiver run needs (interfaces.md §4): the receiver's URL (from
 * `--receiver URL`) and the values deliveries are signed and addressed with,
 * from the environment or a `--target` profile file with the same fields (the
 * environment wins, field by field), never from argv:
 *   LOCKCONF_API_KEY         apiKey         the signing key (required)
 *   LOCKCONF_WEBHOOK_HEADER  webhookHeader  the registration's custom header name  } both or
 *   LOCKCONF_WEBHOOK_TOKEN   webhookToken   the token sent in it                   } neither
 *   LOCKCONF_CLIENT_ID       clientId       optional
 *   LOCKCONF_CLIENT_SECRET   clientSecret   optional: the wrong key a forged delivery is signed with
 * A bad value stops the run before any test, with a message that names the
 * field (never its value).
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { LockconfError } from '../run/errors.js';

export interface ReceiverSettings {
  url: string;
  apiKey: string;
  header: string | null;
  token: string | null;
  clientId: string | null;
  clientSecret: string | null;
}

const FIELDS = {
  apiKey: 'LOCKCONF_API_KEY',
  webhookHeader: 'LOCKCONF_WEBHOOK_HEADER',
  webhookToken: 'LOCKCONF_WEBHOOK_TOKEN',
  clientId: 'LOCKCONF_CLIENT_ID',
  clientSecret: 'LOCKCONF_CLIENT_SECRET',
} as const;

type Field = keyof typeof FIELDS;

function invalid(message: string): LockconfError {
  return new LockconfError('ERR_PROFILE_INVALID', message);
}

/**
 * The receiver URL, checked: http or https, no credentials in it. A host that
 * is neither an IP literal nor localhost is refused unless the user named it
 * explicitly (on the command line): lockconf sends forged deliveries, and a
 * name may resolve anywhere.
 */
export function checkReceiverUrl(raw: string, opts: { explicit: boolean }): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid(`--receiver ${JSON.stringify(raw.slice(0, 200))} is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid(`--receiver must be an http or https URL (got ${u.protocol})`);
  if (u.username || u.password) throw invalid('--receiver must not carry credentials in the URL');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!opts.explicit && isIP(host) === 0 && host !== 'localhost') {
    throw invalid(`the receiver host ${host} is a name, not an IP literal or localhost: pass it with --receiver to send deliveries there`);
  }
  return u.toString();
}

/** Field values from the profile file (when given) and the environment (which wins). */
async function readFields(env: NodeJS.ProcessEnv, file: string | null): Promise<Partial<Record<Field, string>>> {
  let fromFile: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw invalid(`--target ${file}: cannot be read`);
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      fromFile = parsed as Record<string, unknown>;
    } catch {
      throw invalid(`--target ${file}: not a JSON object`);
    }
  }
  const out: Partial<Record<Field, string>> = {};
  for (const [field, variable] of Object.entries(FIELDS) as Array<[Field, string]>) {
    const value = env[variable] !== undefined && env[variable] !== '' ? env[variable] : fromFile[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw invalid(`${field} (${variable}) must be a string`);
    out[field] = value;
  }
  return out;
}

/** Everything a receiver run needs, validated; throws ERR_PROFILE_INVALID naming the field. */
export async function loadReceiverSettings(opts: {
  url: string;
  explicit: boolean;
  env: NodeJS.ProcessEnv;
  file?: string | null;
}): Promise<ReceiverSettings> {
  const url = checkReceiverUrl(opts.url, { explicit: opts.explicit });
  const fields = await readFields(opts.env, opts.file ?? null);
  if (!fields.apiKey?.trim()) {
    throw invalid('LOCKCONF_API_KEY is not set: the API key the receiver verifies signatures with (set it in the environment or in the --target file as apiKey)');
  }
  const header = fields.webhookHeader?.trim() || null;
  const token = fields.webhookToken || null;
  if (!header !== !token) {
    throw invalid('LOCKCONF_WEBHOOK_HEADER and LOCKCONF_WEBHOOK_TOKEN go together: set both (the header and token of the registration) or neither');
  }
  if (header && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) throw invalid('LOCKCONF_WEBHOOK_HEADER is not a valid HTTP header name');
  if (header && ['content-type', 'x-signature', 'content-length', 'host'].includes(header.toLowerCase())) {
    throw invalid(`LOCKCONF_WEBHOOK_HEADER names a header every delivery already carries (${header})`);
  }
  return {
    url,
    apiKey: fields.apiKey,
    header,
    token,
    clientId: fields.clientId ?? null,
    clientSecret: fields.clientSecret ?? null,
  };
}
