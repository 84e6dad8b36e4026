/**
 * Generated faults of the example receiver (issue 19's discipline on the
 * receiver side): a fault `ID@dim=value` breaks requirement ID of the receiver
 * catalog on that one slice (one signature form, one event row, one enumerated
 * value…) and leaves the rest right. The list of faults is derived from the
 * catalog's declared slices (test/receiver/receiver-slice-faults.ts), never
 * written one by one: here is only, per requirement, its break point
 * (RECEIVER_SLICE_BREAKS), generic over its dimensions' values, and what a
 * delivery's slices are (the form of its X-Signature, its row, the values it reports).
 * A real receiver has none of this.
 */
import { formsShownBy } from '../../harness/catalog/signature-forms.js';
import { eventRow } from '../../mock/events/rows.js';
import { flipByte, flipChar, jsonPositions, lastMember } from '../../harness/receiver/probes.js';

export interface ReceiverSliceBreak {
  dims: readonly string[];
  description: string;
}

/** A generated fault's name: `RECEIVER-…@dim=value`. */
export type ReceiverSliceFault = `RECEIVER-${string}@${string}=${string}`;

const VALUE_UNKNOWN = 'Knows the values of this row but the one of the slice: refuses (422) the row\'s events reporting it.';

/** The row of the Events tables → the receiver requirement that the row's events are accepted. */
export const ROW_REQUIREMENT: Readonly<Record<string, string>> = {
  operation_app: 'RECEIVER-EVENT-OPERATION-APP',
  operation_keypad: 'RECEIVER-EVENT-OPERATION-KEYPAD',
  operation_manual: 'RECEIVER-EVENT-OPERATION-MANUAL',
  door_state: 'RECEIVER-EVENT-DOOR-STATE',
  status_check: 'RECEIVER-EVENT-STATUS-CHECK',
  lock_name_changed: 'RECEIVER-EVENT-LOCK-NAME-CHANGED',
  lock_battery_alert: 'RECEIVER-EVENT-LOCK-BATTERY',
  lock_log_timestamp_drifted: 'RECEIVER-EVENT-LOCK-CLOCK-DRIFT',
  keypad_pin_managed: 'RECEIVER-EVENT-KEYPAD-PIN-MANAGED',
  master_pin_changed: 'RECEIVER-EVENT-MASTER-PIN',
  keypad_battery: 'RECEIVER-EVENT-KEYPAD-BATTERY',
  bridge: 'RECEIVER-EVENT-BRIDGE',
  lock_user_add: 'RECEIVER-EVENT-LOCK-USER-ADD',
  lock_user_remove: 'RECEIVER-EVENT-LOCK-USER-REMOVE',
  lock_usertype_changed: 'RECEIVER-EVENT-LOCK-USERTYPE-CHANGED',
  lock_accesstype_changed: 'RECEIVER-EVENT-LOCK-ACCESSTYPE-CHANGED',
  'user.lock_user_add': 'RECEIVER-EVENT-USER-EVENTS',
  'user.lock_user_remove': 'RECEIVER-EVENT-USER-EVENTS',
  'user.lock_usertype_changed': 'RECEIVER-EVENT-USER-EVENTS',
  'user.lock_accesstype_changed': 'RECEIVER-EVENT-USER-EVENTS',
  'user.lifecycle': 'RECEIVER-UNKNOWN-EVENT-TYPE',
};

const ENUM_ROWS = ['OPERATION-APP', 'OPERATION-KEYPAD', 'OPERATION-MANUAL', 'DOOR-STATE', 'STATUS-CHECK', 'LOCK-BATTERY', 'KEYPAD-PIN-MANAGED', 'KEYPAD-BATTERY', 'BRIDGE', 'LOCK-USERTYPE-CHANGED', 'LOCK-ACCESSTYPE-CHANGED'];

/** Per requirement: the one place it can be broken, on any slice of these dimensions. */
export const RECEIVER_SLICE_BREAKS: Readonly<Record<string, ReceiverSliceBreak>> = {
  ...Object.fromEntries(ENUM_ROWS.map((row) => [`RECEIVER-EVENT-${row}`, { dims: ['enum-value'], description: VALUE_UNKNOWN }])),
  'RECEIVER-EVENT-USER-EVENTS': { dims: ['row', 'enum-value'], description: 'Knows the user events but this row or value: refuses (422) the events of the slice.' },
  'RECEIVER-SIGNATURE-FORMS': { dims: ['signature-form'], description: 'Cannot read X-Signature in this layout: refuses (401) a correctly signed delivery in it.' },
  'RECEIVER-SIGNATURE-ENCODINGS': { dims: ['signature-form'], description: 'Cannot read v in this encoding, or t in this unit: refuses (401) a correctly signed delivery in it.' },
  'RECEIVER-SIGNATURE-RAW-BODY': { dims: ['raw-layout'], description: 'Rewrites the body before verifying it as this layout shows: re-serializes it (other-serializer), trims it (leading- and trailing-whitespace), normalizes it to NFC (nfd-text): refuses (401) a correctly signed body in that layout.' },
  'RECEIVER-REJECTS-ALTERED-V': { dims: ['v-alteration'], description: 'Compares v loosely as this alteration shows: without its first or last character, with one character of difference, as a prefix of the signature, or the signature as a prefix of v.' },
  'RECEIVER-REJECTS-INCOMPLETE-SIGNATURE': { dims: ['element-breach'], description: 'Skips the signature check when X-Signature lacks this element (t, v), v is empty, or the header is missing (no-header).' },
  'RECEIVER-CONTENT-TYPE': { dims: ['content-type'], description: 'Insists on another Content-Type: refuses (415) a delivery with this one.' },
  'RECEIVER-LOCKID-FORMS': { dims: ['lockid-form'], description: 'Knows LockID in one form only: refuses (422) a lower-case hex LockID, or a bridge LockID listing several locks.' },
  'RECEIVER-REJECTS-TAMPERED-BODY': { dims: ['signature-form', 'row', 'body-byte', 'body-surround', 'body-key', 'normalization'], description: 'For deliveries of this form or row, verifies the signature over JSON.stringify(JSON.parse(body)): a body that only gained whitespace after signing passes. For a body-byte slice, also takes the body with one byte of that class (first, last, inside a string, a digit, any) changed back; for body-surround, the body without those bytes; for body-key, the body without its last member when its key repeats an earlier one (a first-wins view) or is new (only the known members verified); for normalization, the body in the form signed; and acts on the body it verified.' },
  'RECEIVER-REJECTS-WRONG-KEY': { dims: ['signature-form', 'wrong-key'], description: 'For headers in this form, also takes the client secret as the key; for a wrong-key slice, also takes that key: the client secret, the registration\'s token, its header name, an empty key, the API key with its first, last or any inner character changed.' },
  'RECEIVER-REJECTS-BODY-ONLY-SIGNATURE': { dims: ['signature-form'], description: 'For headers in this form, also takes an HMAC of the body alone.' },
  'RECEIVER-REJECTS-STALE-T': { dims: ['signature-form', 'stale-disguise', 'body-time', 'stale-age'], description: 'For a stale-age slice, takes a t of that age (its age computed in 32-bit milliseconds, or not compared); For headers in this form, never compares t with the current time; for a header with two t, verifies the signature over one and compares the other with the clock; for a body-time slice, when t is stale, takes the body\'s own time instead (its timeStamp, its Timestamp, or both when both are current).' },
  'RECEIVER-TOLERANCE-5-MIN': { dims: ['t-age'], description: 'A tolerance that misjudges this age: 3 minutes (refuses a t 4 min old), 4 min 30 s (refuses 4 min 55 s), 5 min 15 s (takes 5 min 5 s) or 10 minutes (takes a t 5 min 30 s old).' },
  'RECEIVER-CUSTOM-HEADER': { dims: ['custom-header-breach'], description: 'Lets this breach of the registration\'s custom header pass.' },
};

/** The generated faults switched on, by requirement and dimension; throws on a name with no break point. */
export class ReceiverSliceFaults {
  readonly #on = new Map<string, Map<string, Set<string>>>();

  constructor(names: readonly string[]) {
    for (const name of names) {
      const m = /^([A-Z0-9-]+)@([a-z0-9-]+)=(.+)$/.exec(name);
      if (!m) continue; // a named fault (receiver-faults.ts)
      const [, id, dim, value] = m as unknown as [string, string, string, string];
      const point = RECEIVER_SLICE_BREAKS[id];
      if (!point) throw new Error(`${name}: ${id} has no slice break point in the example receiver`);
      if (!point.dims.includes(dim)) throw new Error(`${name}: ${id} breaks only over ${point.dims.join(', ')}`);
      const dims = this.#on.get(id) ?? new Map<string, Set<string>>();
      dims.set(dim, (dims.get(dim) ?? new Set()).add(value));
      this.#on.set(id, dims);
    }
  }

  get any(): boolean {
    return this.#on.size > 0;
  }

  /** The values of `dim` a fault of `id` is on for (empty when none). */
  on(id: string, dim: string): string[] {
    return [...(this.#on.get(id)?.get(dim) ?? [])];
  }

  /** True when a fault of `id` is on for one of the given values of one of the given dimensions. */
  breaks(id: string, slice: Readonly<Record<string, string | readonly string[] | null | undefined>>): boolean {
    const dims = this.#on.get(id);
    if (!dims) return false;
    return Object.entries(slice).some(([dim, values]) => {
      const on = dims.get(dim);
      if (!on || values === null || values === undefined) return false;
      return (typeof values === 'string' ? [values] : values).some((v) => on.has(v));
    });
  }
}

/** The forms an X-Signature header is in (harness/catalog/signature-forms.ts): its departures, or plain. */
export function signatureFormsOf(header: string): string[] {
  const shown = formsShownBy(header);
  return shown.length ? shown : ['plain'];
}

type Fields = Record<string, unknown>;

/** The row of a delivered event: a user registration's events carry a top-level UserID and no User object. */
export function rowOf(event: Fields): string {
  const toUser = event.EventType === 'lifecycle' || (event.User === undefined && typeof event.UserID === 'string');
  return eventRow(toUser, event);
}

/** The enumerated values an event reports: Event, warningLevel, Pin.state, UserType, AccessType. */
export function enumValuesOf(event: Fields): string[] {
  const user = (event.User ?? {}) as Fields;
  const pin = (event.Pin ?? {}) as Fields;
  return [event.Event, event.warningLevel, pin.state, user.UserType ?? event.UserType, user.AccessType ?? event.AccessType].filter((v): v is string => typeof v === 'string');
}

/** The forms of LockID an event shows beyond the samples' (upper-case hex, one lock). */
export function lockIdFormsOf(event: Fields): string[] {
  const id = event.LockID;
  if (Array.isArray(id)) return id.length > 1 ? ['bridge-several-locks'] : [];
  return typeof id === 'string' && /[a-f]/.test(id) && /^[0-9a-fA-F]+$/.test(id) ? ['lower-case-hex'] : [];
}

/** The content-type slice of a Content-Type header. */
export function contentTypeSlice(value: string | undefined): string {
  return /;\s*charset=/i.test(value ?? '') ? 'charset-utf-8' : 'bare';
}

/** The tolerances that misjudge each t-age slice (the slice's own age on the wrong side), when its fault is on. */
const MISJUDGED_TOLERANCE: Readonly<Record<string, number>> = {
  'inside-4-min': 3 * 60_000,
  'inside-4-min-55-s': 4.5 * 60_000,
  'beyond-5-min-5-s': 5.25 * 60_000,
  'beyond-5-min-30-s': 10 * 60_000,
};

/** The tolerance of the generated fault on RECEIVER-TOLERANCE-5-MIN, or null when none is on. */
export function misjudgedTolerance(faults: ReceiverSliceFaults): number | null {
  const on = faults.on('RECEIVER-TOLERANCE-5-MIN', 't-age');
  return on.length ? MISJUDGED_TOLERANCE[on[0]!] ?? null : null;
}

/** The bytes a receiver verifies with the raw-layout faults on: the body rewritten as each says (the raw body when none is on). */
export function rawBodyView(raw: Buffer, layouts: readonly string[]): Buffer {
  let text = raw.toString('utf8');
  if (layouts.includes('other-serializer')) text = JSON.stringify(JSON.parse(text));
  if (layouts.includes('leading-whitespace')) text = text.trimStart();
  if (layouts.includes('trailing-whitespace')) text = text.trimEnd();
  if (layouts.includes('nfd-text')) text = text.normalize('NFC');
  return layouts.length ? Buffer.from(text, 'utf8') : raw;
}

/**
 * The further bodies a receiver with the tampering faults on (body-byte, body-surround,
 * normalization) takes a signature over: each undoes the one change of its slice.
 */
export function tamperedBodyViews(raw: Buffer, faults: ReceiverSliceFaults): Buffer[] {
  const id = 'RECEIVER-REJECTS-TAMPERED-BODY';
  const views: string[] = [];
  const text = raw.toString('utf8');
  const bytes = faults.on(id, 'body-byte');
  if (bytes.length) {
    const at = jsonPositions(text);
    const classes: Record<string, number[]> = { first: [0], last: [text.length - 1], 'inside-string': at.insideString, 'digit-of-number': at.numberDigit, drawn: at.ascii };
    for (const slice of bytes) for (const i of classes[slice] ?? []) if (text.charCodeAt(i) < 0x80) views.push(flipByte(text, i));
  }
  const out: Buffer[] = views.map((v) => Buffer.from(v, 'utf8'));
  for (const slice of faults.on(id, 'body-surround')) {
    if (slice === 'leading-blank' && raw[0] === 0x20) out.push(raw.subarray(1));
    if (slice === 'trailing-newline' && raw.at(-1) === 0x0a) out.push(raw.subarray(0, -1));
  }
  const last = faults.on(id, 'body-key').length ? lastMember(text) : null;
  if (last) {
    const repeats = text.slice(0, last.comma).includes(`${JSON.stringify(last.key)}:`);
    if (faults.on(id, 'body-key').includes(repeats ? 'key-repeated' : 'key-added')) out.push(Buffer.from(`${text.slice(0, last.comma)}}`, 'utf8'));
  }
  for (const slice of faults.on(id, 'normalization')) out.push(Buffer.from(text.normalize(slice === 'signed-nfc-sent-nfd' ? 'NFC' : 'NFD'), 'utf8'));
  return out;
}

/** A v compared loosely with the expected hex as the v-alteration faults on say. */
export function looselyEqual(v: string, expectedHex: string, alterations: readonly string[]): boolean {
  const differences = v.length === expectedHex.length ? [...v].filter((c, i) => c !== expectedHex[i]).length : -1;
  const loose: Record<string, () => boolean> = {
    'first-char': () => v.length === expectedHex.length && v.slice(1) === expectedHex.slice(1),
    'last-char': () => v.length === expectedHex.length && v.slice(0, -1) === expectedHex.slice(0, -1),
    'drawn-char': () => differences === 1 && v[0] === expectedHex[0] && v.at(-1) === expectedHex.at(-1),
    'last-char-dropped': () => v.length === expectedHex.length - 1 && expectedHex.startsWith(v),
    'prefix-half': () => v.length === expectedHex.length / 2 && expectedHex.startsWith(v),
    'prefix-one-byte-short': () => v.length === expectedHex.length - 2 && expectedHex.startsWith(v),
    'prefix-one-digit': () => v.length === 1 && expectedHex.startsWith(v),
    'byte-appended': () => v.length === expectedHex.length + 2 && v.startsWith(expectedHex),
    'signature-doubled': () => v.length === 2 * expectedHex.length && v.startsWith(expectedHex),
  };
  return alterations.some((a) => loose[a]?.() ?? false);
}

/** The further keys a receiver with the wrong-key faults on takes (each the key of its slice; none when the receiver does not hold it). */
export function wrongKeysTaken(faults: ReceiverSliceFaults, secrets: { apiKey: string; clientSecret?: string | null; header?: string | null; token?: string | null }): string[] {
  const api = secrets.apiKey;
  const inner = Array.from({ length: Math.max(api.length - 2, 0) }, (_, i) => flipChar(api, i + 1));
  const keys: Record<string, () => Array<string | null | undefined>> = {
    'client-secret': () => [secrets.clientSecret],
    'webhook-token': () => [secrets.token],
    'custom-header-name': () => [secrets.header],
    'empty-key': () => [''],
    'api-key-first-char': () => [flipChar(api, 0)],
    'api-key-last-char': () => [flipChar(api, api.length - 1)],
    'api-key-drawn-char': () => inner,
  };
  return faults.on('RECEIVER-REJECTS-WRONG-KEY', 'wrong-key').flatMap((slice) => keys[slice]?.() ?? []).filter((k): k is string => typeof k === 'string');
}

/** The time a receiver with the body-time faults on compares with the clock: t, or when t is stale the body's own time of the slice (epoch ms). */
export function bodyTimeTaken(faults: ReceiverSliceFaults, body: unknown, tMs: number | null, now: number, toleranceMs: number): number | null {
  const on = faults.on('RECEIVER-REJECTS-STALE-T', 'body-time');
  if (!on.length || tMs === null || Math.abs(now - tMs) <= toleranceMs || body === null || typeof body !== 'object') return tMs;
  const fields = body as Record<string, unknown>;
  const fresh = (name: string) => typeof fields[name] === 'number' && Math.abs(now - (fields[name] as number)) <= toleranceMs;
  const taken: Record<string, () => string | null> = {
    'fresh-timeStamp': () => (fresh('timeStamp') ? 'timeStamp' : null),
    'fresh-Timestamp': () => (fresh('Timestamp') ? 'Timestamp' : null),
    'fresh-both': () => (fresh('timeStamp') && fresh('Timestamp') ? 'timeStamp' : null),
  };
  const field = on.map((slice) => taken[slice]?.() ?? null).find((f) => f !== null);
  return field ? (fields[field] as number) : tMs;
}
