/**
 * A recording HTTP proxy put between a conformance run and the reference mock,
 * so the secret-leak test knows every token and code the target handed out (and
 * every webhook token the harness chose) without trusting the harness to say so.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';

const TOKEN_FIELDS = ['access_token', 'refresh_token', 'id_token', 'code', 'token', 'refreshToken', 'password'];

export interface RecordingProxy {
  url: string;
  /** Every secret-looking value seen in either direction. */
  values(): Set<string>;
  close(): Promise<void>;
}

function harvestJson(text: string, into: Set<string>): void {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return;
  }
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        if (TOKEN_FIELDS.includes(k) && typeof inner === 'string' && inner.length >= 8) into.add(inner);
        walk(inner);
      }
    }
  };
  walk(data);
}

function harvestText(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/[?&](?:code|refresh_token|access_token)=([^&"'\s<>#]+)/g)) {
    const v = decodeURIComponent(m[1]!);
    if (v.length >= 8) into.add(v);
  }
}

function harvestHeaders(headers: IncomingHttpHeaders, into: Set<string>): void {
  const token = headers['x-access-token'];
  if (typeof token === 'string' && token.length >= 8) into.add(token);
  const location = headers.location;
  if (typeof location === 'string') harvestText(location, into);
}

/** Forward every request to `upstream` (origin, e.g. http://127.0.0.1:1234), recording both ways. */
export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const seen = new Set<string>();
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const reqText = body.toString('utf8');
      harvestJson(reqText, seen);
      harvestText(`${req.url ?? ''} ${reqText}`, seen);
      harvestHeaders(req.headers, seen);
      const out = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (up) => {
          const back: Buffer[] = [];
          up.on('data', (c: Buffer) => back.push(c));
          up.on('end', () => {
            const payload = Buffer.concat(back);
            const text = payload.toString('utf8');
            harvestJson(text, seen);
            harvestText(text, seen);
            harvestHeaders(up.headers, seen);
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(payload);
          });
        },
      );
      out.on('error', () => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end('{"error":"upstream_unreachable"}');
      });
      out.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    values: () => seen,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
