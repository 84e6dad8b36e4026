/**
 * The legal forms of an X-Signature header: one list, shared by both sides of
 * lockconf. The service checks (suites/support/signatures.ts with
 * harness/wire/signature.ts) accept every form here from a service; receiver mode
 * sends every form to a receiver: the layouts it must accept (RECEIVER-SIGNATURE-FORMS,
 * MUST: the format the spec shows fixes no order and no closed set of prefixes),
 * the encodings of v and units of t it should accept (RECEIVER-SIGNATURE-ENCODINGS,
 * SHOULD: the spec leaves them "not shown", so a receiver may pick one).
 *
 * What the spec says (Events › Signature), and nothing more:
 *   1. "X-Signature holds comma-separated elements of the form prefix=value.
 *       Prefix t is the timestamp; prefix v is the signature."
 *   2. "payload_string is the timestamp as a string, then the character ., then
 *       the JSON request body as a string."
 *   4. "…compares the timestamp to the current time."
 *   "Text encoding of the signature value: not shown."
 * Left open, so each is a form: the order of the elements (none is given),
 * elements with other prefixes (t and v are named, others are not excluded),
 * blanks around the commas (HTTP's list syntax, RFC 9110 §5.6.1, allows them
 * around the commas of a comma-separated field value; never around "=", which
 * the form prefix=value does not leave room for), the text encoding of v (hex in
 * either case, or base64), and the unit of t (the spec gives none; its sample
 * payload timestamps are epoch milliseconds, epoch seconds are the other common
 * reading of "the timestamp").
 * Not in the list: a second v that is not the signature ("prefix v is the
 * signature", one), a t that is not epoch seconds or milliseconds (ISO 8601,
 * decimals), base64url (neither hex nor base64): the service checks tolerate
 * some of these, receivers are not required to.
 *
 * Each form departs from the plain one (`t=<epoch ms>,v=<lower-case hex>`) in
 * one thing, and `formsShownBy` tells which departure a header shows, so that a
 * fault can break one form and leave the others (examples/app/receiver-faults.ts).
 */

export interface SignatureForm {
  /** Stable, lower-case: the slice value (dimension `signature-form`). */
  id: string;
  title: string;
  /**
   * What the form departs in. `layout`: the order of the elements, blanks, other
   * elements, which follow from the format the spec shows ("comma-separated elements
   * of the form prefix=value"; no order, no closed set of prefixes). `encoding`: the
   * text encoding of v ("not shown") or the unit of t (not given): a receiver may
   * choose one, so accepting every one is robustness, not a rule of the text.
   */
  kind: 'layout' | 'encoding';
  /** The words of the spec that leave this form open (quoted), and the reading. */
  because: string;
  /** The t element's value for a time in epoch milliseconds. */
  t(ms: number): string;
  /** v's text for the 32 HMAC bytes. */
  v(mac: Buffer): string;
  /** The header, from the t and v texts. */
  header(t: string, v: string): string;
}

const ELEMENTS = 'X-Signature holds comma-separated elements of the form prefix=value. Prefix t is the timestamp; prefix v is the signature.';
const ENCODING = 'Text encoding of the signature value: not shown.';
const UNIT = 'Prefix t is the timestamp … payload_string is the timestamp as a string';

/** An element with a prefix the spec does not name: a key id, as services that rotate keys send. */
export const EXTRA_ELEMENT = 'kid=1';

const ms = (when: number) => String(when);
const hex = (mac: Buffer) => mac.toString('hex');
const plain = (t: string, v: string) => `t=${t},v=${v}`;

export const SIGNATURE_FORMS: readonly SignatureForm[] = [
  { id: 'plain', kind: 'layout', title: 't=<epoch ms>,v=<lower-case hex>', because: `${ELEMENTS} (the form of the spec's own wording and of lockconf's other deliveries)`, t: ms, v: hex, header: plain },
  { id: 'v-first', kind: 'layout', title: 'v=…,t=… (v before t)', because: `${ELEMENTS} No order is given.`, t: ms, v: hex, header: (t, v) => `v=${v},t=${t}` },
  { id: 'space-after-comma', kind: 'layout', title: 't=…, v=… (a blank after the comma)', because: `${ELEMENTS} Reading: blanks around the commas of a comma-separated HTTP field value are allowed (RFC 9110 §5.6.1).`, t: ms, v: hex, header: (t, v) => `t=${t}, v=${v}` },
  { id: 'spaces-around-comma', kind: 'layout', title: 't=… , v=… (blanks on both sides of the comma)', because: `${ELEMENTS} Reading: as above (OWS "," OWS).`, t: ms, v: hex, header: (t, v) => `t=${t} , v=${v}` },
  { id: 'extra-element-last', kind: 'layout', title: `t=…,v=…,${EXTRA_ELEMENT} (an element of another prefix after them)`, because: `${ELEMENTS} Only t and v are named; other prefixes are not excluded.`, t: ms, v: hex, header: (t, v) => `t=${t},v=${v},${EXTRA_ELEMENT}` },
  { id: 'extra-element-first', kind: 'layout', title: `${EXTRA_ELEMENT},t=…,v=… (an element of another prefix before them)`, because: `${ELEMENTS} Only t and v are named; other prefixes are not excluded, and no order is given.`, t: ms, v: hex, header: (t, v) => `${EXTRA_ELEMENT},t=${t},v=${v}` },
  { id: 'v-upper-hex', kind: 'encoding', title: 'v in upper-case hex', because: ENCODING, t: ms, v: (mac) => mac.toString('hex').toUpperCase(), header: plain },
  { id: 'v-base64', kind: 'encoding', title: 'v in base64 (RFC 4648 §4, padded)', because: ENCODING, t: ms, v: (mac) => mac.toString('base64'), header: plain },
  { id: 't-seconds', kind: 'encoding', title: 't in epoch seconds', because: `${UNIT}: the unit of t is not given (the samples' payload timestamps are epoch milliseconds).`, t: (when) => String(Math.floor(when / 1000)), v: hex, header: plain },
];

export const SIGNATURE_FORM_IDS: readonly string[] = SIGNATURE_FORMS.map((f) => f.id);

/** The forms that differ from the plain one in layout only (order, blanks, other elements): the format the spec shows. */
export const LAYOUT_FORM_IDS: readonly string[] = SIGNATURE_FORMS.filter((f) => f.kind === 'layout').map((f) => f.id);

/** The forms that differ in the encoding of v or the unit of t: what the spec leaves to the service ("not shown"). */
export const ENCODING_FORM_IDS: readonly string[] = SIGNATURE_FORMS.filter((f) => f.kind === 'encoding').map((f) => f.id);

export function signatureForm(id: string): SignatureForm {
  const form = SIGNATURE_FORMS.find((f) => f.id === id);
  if (!form) throw new Error(`unknown signature form: ${id}`);
  return form;
}

/**
 * A header in this form for a time (epoch ms), and the t it carries: `sign(t)` is
 * the 32-byte HMAC over `${t}.${body}` the caller computes with its key.
 */
export function headerInForm(form: SignatureForm, whenMs: number, sign: (t: string) => Buffer): { header: string; t: string } {
  const t = form.t(whenMs);
  return { header: form.header(t, form.v(sign(t))), t };
}

/**
 * The departures from the plain form a header shows (form IDs; empty for the
 * plain form, or a header that is none of these). Each form of the list shows
 * exactly its own departure.
 */
export function formsShownBy(header: string): string[] {
  const elements = header.split(',').map((e) => e.trim());
  const prefixes = elements.map((e) => e.slice(0, Math.max(0, e.indexOf('='))));
  const value = (prefix: string) => elements[prefixes.indexOf(prefix)]?.slice(prefix.length + 1) ?? '';
  const t = value('t');
  const v = value('v');
  const named = (p: string) => p === 't' || p === 'v';
  const shown: Array<[string, boolean]> = [
    ['v-first', prefixes.indexOf('v') >= 0 && prefixes.indexOf('v') < prefixes.indexOf('t')],
    ['space-after-comma', /,\s/.test(header) && !/\s,/.test(header)],
    ['spaces-around-comma', /\s,/.test(header)],
    ['extra-element-last', elements.length > 1 && !named(prefixes.at(-1)!)],
    ['extra-element-first', elements.length > 1 && !named(prefixes[0]!)],
    ['v-upper-hex', /^[0-9A-F]{64}$/.test(v) && /[A-F]/.test(v)],
    ['v-base64', /^[A-Za-z0-9+/]{43}=$/.test(v)],
    ['t-seconds', /^\d{1,10}$/.test(t)],
  ];
  return shown.filter(([, yes]) => yes).map(([id]) => id);
}

/** The form a header is in: its one departure, 'plain' for none, null for several (not a form of the list). */
export function formOf(header: string): string | null {
  const shown = formsShownBy(header);
  if (shown.length === 0) return 'plain';
  return shown.length === 1 ? shown[0]! : null;
}
