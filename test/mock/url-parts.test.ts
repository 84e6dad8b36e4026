/** The url classes of the slice dimension url-part (mock/webhooks/url-parts.ts): each class alone, each broken alone. */
import { describe, expect, test } from 'vitest';
import { mangleUrl, urlParts } from '../../mock/webhooks/url-parts.js';

const URLS: Record<string, string> = {
  path: 'http://127.0.0.1:41234/inbox/a-1/hooks/lock-events/v1',
  query: 'http://127.0.0.1:41234/inbox/a-1?source=lockconf',
  case: 'http://127.0.0.1:41234/inbox/a-1/Hooks/LockEvents',
  'other-loopback': 'http://127.0.0.2:41234/inbox/a-1',
  'ipv6-literal': 'http://[::1]:41234/inbox/a-1',
  'port-4-digits': 'http://127.0.0.1:8123/inbox/a-1',
  https: 'https://127.0.0.1:41234/tls-probe',
};

describe('url-part classes', () => {
  test('a plain inbox url (127.0.0.1, an ephemeral port, two segments) is of no class', () => {
    expect(urlParts('http://127.0.0.1:41234/inbox/a-1')).toEqual([]);
  });

  test.each(Object.entries(URLS))('%s: the slice url is of that class alone, and only its own fault mangles it', (part, url) => {
    expect(urlParts(url)).toEqual([part]);
    for (const other of Object.keys(URLS)) if (other !== part) expect(mangleUrl(url, (p) => p === other)).toBe(url);
    expect(mangleUrl(url, (p) => p === part)).not.toBe(url);
  });

  test('the mangled forms: host pinned to 127.0.0.1, brackets dropped, port dropped, https downgraded to http', () => {
    const broken = () => true;
    expect(mangleUrl(URLS['other-loopback']!, broken)).toBe('http://127.0.0.1:41234/inbox/a-1');
    expect(mangleUrl(URLS['ipv6-literal']!, broken)).toBe('http://::1:41234/inbox/a-1');
    expect(mangleUrl(URLS['port-4-digits']!, broken)).toBe('http://127.0.0.1/inbox/a-1');
    expect(mangleUrl(URLS.https!, broken)).toBe('http://127.0.0.1:41234/tls-probe');
  });
});
