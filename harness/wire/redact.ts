/**
 * The secret registry. Everything that leaves a test (exchange logs, messages,
 * reports) passes through redact(), which replaces each known secret, in the
 * forms it is likely to appear in, with a short label derived from the value
 * (`‹access_token#3f2a9c›`): the secret is gone but a reader still sees when a
 * token changes (rotation) or stays the same (reuse).
 */
import { createHash } from 'node:crypto';
import type { RedactorLike, SecretKind, TargetProfile } from '../contracts.js';

/** Shorter values would turn ordinary text into labels; they are not worth hiding. */
const MIN_LENGTH = 4;

/** Three base64url segments, the first two starting like a JSON object ("{" → "eyJ"). */
const JWT_RE = 'eyJ[A-Za-z0-9_-]{2,}\\.eyJ[A-Za-z0-9_-]{2,}\\.[A-Za-z0-9_-]*';
/**
 * Words that follow "Basic" or "Bearer" in prose (the spec's own "a Basic Authorization header is
 * ignored", a failure message's "Basic header"): a credential is never one of them, and a rule's
 * verbatim sentence must reach the report as written.
 */
const PROSE_AFTER_SCHEME = ['Authorization', 'authorization', 'headers?', 'tokens?', 'credentials?', 'scheme', 'auth'];
/**
 * The credential of an Authorization: Basic / Bearer header, with the scheme
 * captured so it is kept (a capture instead of a lookbehind, which would be
 * tried at every position of the text).
 */
const AUTH_HEADER_RE = `\\b(Basic|Bearer)(\\s+)(?!(?:${PROSE_AFTER_SCHEME.join('|')})\\b)([A-Za-z0-9+/=._~-]{4,})`;
const WHOLE_JWT = new RegExp(`^${JWT_RE}$`);

function shortHash(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 6);
}

/** The forms a secret takes in URLs, form bodies, JSON text and base64. */
function formsOf(value: string): string[] {
  const b64 = Buffer.from(value, 'utf8').toString('base64');
  const forms = [
    value,
    encodeURIComponent(value),
    new URLSearchParams([['', value]]).toString().slice(1), // form encoding: space → +
    JSON.stringify(value).slice(1, -1), // as it appears inside a JSON string
    b64,
    b64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
  ];
  return [...new Set(forms)].filter((f) => f.length >= MIN_LENGTH);
}

/**
 * The next match of `re` (global) at or after `from` in `text`, or null. `re` is shared:
 * its lastIndex is set before each use.
 */
function nextMatch(re: RegExp, text: string, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  return re.exec(text);
}

/** The UTF-16 units at `at` and `at + 1` of `text` as one number (a Map key without a string). */
function firstUnits(text: string, at: number): number {
  return text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1);
}

export class Redactor implements RedactorLike {
  private readonly kinds = new Map<string, SecretKind>();
  /** form → label. */
  private readonly forms = new Map<string, string>();
  /**
   * The forms by their first two UTF-16 units (every form has at least MIN_LENGTH), longest
   * first: the one that matches at a position is the longest. Two units, not one: a run adds
   * thousands of tokens, whose forms share a few dozen first letters.
   */
  private readonly byFirstUnits = new Map<number, string[]>();
  /** JWTs and auth-header credentials the redactor was not told about (each Redactor its own: lastIndex is state). */
  private readonly jwt = new RegExp(JWT_RE, 'g');
  private readonly authHeader = new RegExp(AUTH_HEADER_RE, 'g');

  constructor() {}

  /** A redactor that already knows the profile's client secret, API key and control token. */
  static fromProfile(p: TargetProfile): Redactor {
    const r = new Redactor();
    r.add(p.clientSecret, 'client_secret');
    r.add(p.apiKey, 'api_key');
    r.add(p.controlToken, 'control_token');
    return r;
  }

  add(value: string | null | undefined, kind: SecretKind): void {
    if (typeof value !== 'string' || value.length < MIN_LENGTH || this.kinds.has(value)) return;
    this.kinds.set(value, kind);
    const label = this.label(value);
    for (const form of formsOf(value)) {
      // A form shared with an earlier secret keeps its first label.
      if (this.forms.has(form)) continue;
      this.forms.set(form, label);
      const key = firstUnits(form, 0);
      const bucket = this.byFirstUnits.get(key) ?? [];
      const at = bucket.findIndex((f) => f.length < form.length);
      bucket.splice(at === -1 ? bucket.length : at, 0, form);
      this.byFirstUnits.set(key, bucket);
    }
  }

  /** The raw values registered so far. */
  secrets(): string[] {
    return [...this.kinds.keys()];
  }

  label(value: string): string {
    const kind = this.kinds.get(value) ?? (WHOLE_JWT.test(value) ? 'jwt' : 'secret');
    return `‹${kind}#${shortHash(value)}›`;
  }

  /**
   * One pass over the text, left to right: at each position the longest known form of a
   * secret that starts there, else a JWT, else an auth-header credential it was not told
   * about (the scheme is kept); after a replacement the pass goes on behind it. The same
   * as one regex of every form (longest first), JWT_RE and AUTH_HEADER_RE would replace,
   * without compiling that regex again each time a secret is added (a run adds thousands).
   */
  redact(text: string): string {
    if (typeof text !== 'string' || text === '') return text;
    let out = '';
    let done = 0; // text before this index is in `out`
    let jwt = nextMatch(this.jwt, text, 0);
    let auth = nextMatch(this.authHeader, text, 0);
    for (let at = 0; at < text.length;) {
      const bucket = at + 1 < text.length ? this.byFirstUnits.get(firstUnits(text, at)) : undefined;
      const form = bucket?.find((f) => text.startsWith(f, at));
      let length = 0;
      let replacement = '';
      if (form !== undefined) {
        length = form.length;
        replacement = this.forms.get(form)!;
      } else if (jwt?.index === at) {
        length = jwt[0].length;
        replacement = this.forms.get(jwt[0]) ?? this.label(jwt[0]);
      } else if (auth?.index === at) {
        const [whole, scheme, space, credential] = auth as unknown as [string, string, string, string];
        length = whole.length;
        replacement = `${scheme}${space}${this.forms.get(credential) ?? this.label(credential)}`;
      }
      if (length === 0) {
        at++;
        continue;
      }
      out += text.slice(done, at) + replacement;
      at += length;
      done = at;
      // A match found before `at` started inside what was just replaced: look again from here.
      if (jwt && jwt.index < at) jwt = nextMatch(this.jwt, text, at);
      if (auth && auth.index < at) auth = nextMatch(this.authHeader, text, at);
    }
    return done === 0 ? text : out + text.slice(done);
  }
}
