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
 * The credential of an Authorization: Basic / Bearer header, with the scheme
 * captured so it is kept (a capture instead of a lookbehind, which would be
 * tried at every position of the text).
 */
const AUTH_HEADER_RE = '\\b(Basic|Bearer)(\\s+)([A-Za-z0-9+/=._~-]{4,})';

function shortHash(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 6);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

export class Redactor implements RedactorLike {
  private readonly kinds = new Map<string, SecretKind>();
  /** form → label; rebuilt into one regex (longest first) when secrets change. */
  private readonly forms = new Map<string, string>();
  private pattern: RegExp | null = null;

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
      if (!this.forms.has(form)) this.forms.set(form, label);
    }
    this.pattern = null;
  }

  /** The raw values registered so far. */
  secrets(): string[] {
    return [...this.kinds.keys()];
  }

  label(value: string): string {
    const kind = this.kinds.get(value) ?? (new RegExp(`^${JWT_RE}$`).test(value) ? 'jwt' : 'secret');
    return `‹${kind}#${shortHash(value)}›`;
  }

  redact(text: string): string {
    if (typeof text !== 'string' || text === '') return text;
    return text.replace(this.regex(), (match: string, scheme?: string, space?: string, credential?: string) => {
      if (credential !== undefined) return `${scheme}${space}${this.forms.get(credential) ?? this.label(credential)}`;
      return this.forms.get(match) ?? this.label(match);
    });
  }

  private regex(): RegExp {
    if (!this.pattern) {
      // One pass over the text: longest secrets first, so a secret that contains
      // another is replaced whole; then JWTs and auth-header credentials it was not told about.
      const known = [...this.forms.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.pattern = new RegExp([...known, JWT_RE, AUTH_HEADER_RE].join('|'), 'g');
    }
    this.pattern.lastIndex = 0;
    return this.pattern;
  }
}
