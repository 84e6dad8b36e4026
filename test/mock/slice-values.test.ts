/** The generic slice faults of values (mock/slice-values.ts): which class a value holds, which URL part differs. */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { alterByCharClass, differingUrlPart, redirectUriShapes as mockShapes } from '../../mock/slice-values.js';
import { redirectUriShapes as harnessShapes } from '../../harness/wire/redirect-target.js';
import { CHAR_CLASS_EXAMPLES } from '../../suites/support/char-classes.js';
import { declaredValues } from '../../harness/catalog/slices/index.js';
import { differingUrlParts } from '../../mock/url-diff.js';

describe('slice values', () => {
  test('each character class example is altered when, and only when, its class is broken', () => {
    for (const cls of declaredValues('OAUTH-STATE-ECHO', 'chars')) {
      const example = CHAR_CLASS_EXAMPLES[cls]!;
      expect(alterByCharClass(example, (c) => c === cls), cls).not.toBe(example);
      expect(alterByCharClass(example, () => false), cls).toBe(example);
    }
    expect(alterByCharClass('plain-state', () => true)).toBe('plain-state');
  });

  test('the one URL component a redirect_uri differs in', () => {
    const reg = 'http://127.0.0.1:4010/callback';
    expect(differingUrlPart(reg, reg)).toBeNull();
    expect(differingUrlPart(reg, 'https://127.0.0.1:4010/callback')).toBe('scheme');
    expect(differingUrlPart(reg, 'http://lockconf-elsewhere.invalid:4010/callback')).toBe('host');
    expect(differingUrlPart(reg, 'http://127.0.0.1:4011/callback')).toBe('port');
    expect(differingUrlPart(reg, 'http://127.0.0.1:4010/callback/elsewhere')).toBe('path');
    expect(differingUrlPart(reg, 'http://127.0.0.1:4010/callback?lockconf=elsewhere')).toBe('query');
    expect(differingUrlPart(reg, 'http://127.0.0.1:4010/CALLBACK')).toBe('case');
    expect(differingUrlPart(reg, 'https://evil.invalid/x')).toBeNull();
    expect(differingUrlPart(reg, 'not a url')).toBeNull();
  });

  test('the URL components two URLs differ in (the comparison under both the slice faults and the grading)', () => {
    const reg = 'http://127.0.0.1:4010/callback?a=1';
    expect(differingUrlParts(reg, reg)).toEqual([]);
    expect(differingUrlParts(reg, 'https://127.0.0.2:4011/Callback?a=2')).toEqual(['scheme', 'host', 'port', 'path', 'query']);
    expect(differingUrlParts(reg, 'http://127.0.0.1:4010/Callback?a=1')).toEqual(['path']);
    expect(differingUrlParts(reg, 'http://127.0.0.1:4010/Callback?a=1', { foldPathCase: true })).toEqual([]);
    expect(differingUrlParts(reg, 'not a url')).toBeNull();
  });

  // The mock never imports the harness, so the shapes of a registered redirect_uri (the slice dimension
  // `redirect-uri-shape`) are computed twice: by the mock's break points and by the suites' choice of
  // credential. Were they to differ, a generated fault would break a slice the suites try elsewhere.
  const SHAPE_EDGES = [
    'http://127.0.0.1:4010/callback?client=2', 'https://app.example/', 'https://app.example', 'https://app.example:443/cb',
    'http://app.example:80/', 'http://[::1]:8080', 'https://app.example/?', 'https://app.example/#frag', 'https://app.example/cb?a=1#f',
    'https://app.example/%2F', 'https://user:pw@app.example:1/x/y/?q', 'custom-scheme:/path', 'custom:opaque', 'file:///tmp/x',
    'HTTPS://APP.EXAMPLE/CB', 'not a url', '', '/relative/only',
  ];

  test('redirectUriShapes: the mock\'s and the harness\'s agree on named edges and on drawn URLs, in the declared values', () => {
    const declared = new Set(declaredValues('OAUTH-AUTHZ-REDIRECT', 'redirect-uri-shape'));
    const agree = (uri: string) => {
      expect(mockShapes(uri), uri).toEqual(harnessShapes(uri));
      for (const shape of harnessShapes(uri)) expect(declared.has(shape), `${uri}: ${shape}`).toBe(true);
    };
    for (const uri of SHAPE_EDGES) agree(uri);
    fc.assert(fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (uri) => agree(uri)), { seed: 20261202, numRuns: 300 });
    fc.assert(fc.property(fc.string(), (uri) => agree(uri)), { seed: 20261202, numRuns: 200 });
  });
});
