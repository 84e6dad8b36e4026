/**
 * application/x-www-form-urlencoded bodies for the OAuth routes. Unlike a
 * lenient parser, a body with broken percent-encoding is reported as
 * malformed (the token endpoint answers it with a 302 to /error), and a
 * repeated field becomes an array so callers can refuse it.
 */

/** Set on the parsed body when it could not be decoded. */
export const MALFORMED_FORM = Symbol('malformed form body');

export type ParsedForm = Record<string, string | string[]> & { [MALFORMED_FORM]?: true };

/** Characters that change in decoding; a component without them is its own value. */
const ENCODED = /[%+]/;

function decode(component: string): string {
  if (!ENCODED.test(component)) return component;
  return decodeURIComponent(component.replace(/\+/g, ' '));
}

export function parseFormBody(text: string): ParsedForm {
  const form: ParsedForm = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decode(eq < 0 ? pair : pair.slice(0, eq));
      value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    } catch {
      return Object.assign(Object.create(null), { [MALFORMED_FORM]: true as const });
    }
    const previous = form[name];
    form[name] = previous === undefined ? value : [previous, value].flat();
  }
  return form;
}

export function isMalformedForm(body: unknown): boolean {
  return typeof body === 'object' && body !== null && MALFORMED_FORM in body;
}
