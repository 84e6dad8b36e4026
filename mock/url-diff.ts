/**
 * The URL components in which two URLs differ, compared after parsing: one
 * comparison for the grading of a client's redirect_uri (mock/grading/inspect.ts)
 * and for the redirect_uri slice faults (mock/slice-values.ts).
 */

export const URL_PARTS = ['scheme', 'host', 'port', 'path', 'query'] as const;
export type UrlPart = (typeof URL_PARTS)[number];

function partOf(u: URL, part: UrlPart, foldPathCase: boolean): string {
  switch (part) {
    case 'scheme':
      return u.protocol;
    case 'host':
      return u.hostname;
    case 'port':
      return u.port;
    case 'path':
      return foldPathCase ? u.pathname.toLowerCase() : u.pathname;
    case 'query':
      return u.search;
  }
}

/**
 * The components (in URL_PARTS order) in which `a` and `b` differ; null when either is
 * not a URL. `foldPathCase`: paths are compared without their letter case.
 */
export function differingUrlParts(a: string, b: string, { foldPathCase = false } = {}): UrlPart[] | null {
  let x: URL;
  let y: URL;
  try {
    x = new URL(a);
    y = new URL(b);
  } catch {
    return null;
  }
  return URL_PARTS.filter((p) => partOf(x, p, foldPathCase) !== partOf(y, p, foldPathCase));
}

/** The URL's port as written ('' when it is the scheme's default or the URL does not parse). */
export function explicitPort(url: string): string {
  try {
    return new URL(url).port;
  } catch {
    return '';
  }
}
