/**
 * A small HttpClientLike over fetch for the sandbox tests: never follows
 * redirects, parses JSON bodies, sends the spec's API headers. (The harness's
 * own HttpClient adds redaction and exchange logs; these tests need neither.)
 */
import type { HttpClientLike, HttpRequest, HttpResponse, TargetProfile } from '../../../../harness/contracts.js';

export function fetchHttp(profile: Pick<TargetProfile, 'baseUrl' | 'apiKey'>): HttpClientLike {
  async function request(req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    let body: string | Uint8Array | undefined = req.body;
    if (req.form) {
      body = new URLSearchParams(Array.isArray(req.form) ? req.form : Object.entries(req.form)).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    }
    const started = Date.now();
    const res = await fetch(req.url, { method: req.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(req.timeoutMs ?? 10_000) });
    const text = await res.text();
    let json: unknown;
    try { json = JSON.parse(text); } catch { json = undefined; }
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => { out[k] = v; });
    return { status: res.status, headers: out, text, json, location: res.headers.get('location'), durationMs: Date.now() - started };
  }
  return {
    request,
    api: (method, path, opts) => request({
      method,
      url: profile.baseUrl.replace(/\/+$/, '') + path,
      headers: {
        'x-api-key': opts.apiKey ?? profile.apiKey,
        ...(opts.accessToken ? { 'x-access-token': opts.accessToken } : {}),
        'content-type': 'application/json',
        ...(opts.headers ?? {}),
      },
      ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
    }),
    exchanges: () => [],
  };
}
