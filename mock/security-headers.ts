/**
 * Security headers on every answer of the mock, through helmet
 * (finding 5, RFC 9700 §4.16 clickjacking): the pages may not be framed
 * (X-Frame-Options DENY and CSP frame-ancestors 'none'), load nothing from
 * elsewhere, and run no script. Forms may post to the mock itself and, since
 * the consent form ends in a redirect there, to the registered redirect URI.
 * The mock speaks plain HTTP on loopback: no HSTS, no upgrade-insecure-requests.
 */
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { MockContext } from './context.js';

/** The CSP source that admits the redirect URI: its origin, or its scheme when it has no origin (app-claimed schemes). */
export function redirectSource(redirectUri: string): string {
  if (!URL.canParse(redirectUri)) return "'self'";
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
}

/** helmet's options: the forms may post to the mock and to the redirect URI's source. */
function helmetOptions(redirectSrc: string): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        baseUri: ["'none'"],
        formAction: ["'self'", redirectSrc],
        frameAncestors: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, ctx: MockContext): Promise<void> {
  // Built once per redirect URI (it is set once the mock has its address): @fastify/helmet
  // built helmet's middleware again on every request, and a directive given as a function
  // is re-validated on every request, both more costly than the headers themselves.
  let built: { redirectUri: string; apply: ReturnType<typeof helmet> } | undefined;
  const headersFor = (redirectUri: string) => {
    if (built?.redirectUri !== redirectUri) built = { redirectUri, apply: helmet(helmetOptions(redirectSource(redirectUri))) };
    return built.apply;
  };
  app.addHook('onRequest', (request, reply, done) => {
    headersFor(ctx.credentials.redirectUri)(request.raw, reply.raw, (err) => done(err as Error | undefined));
  });
  // The API explorer at /docs (@fastify/swagger-ui) runs its own scripts and styles, served
  // by the mock itself: it alone may load them from 'self'. Framing stays forbidden.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/')) {
      reply.header('content-security-policy', DOCS_CSP);
    }
    done(null, payload);
  });
}

/** The CSP of the API explorer's pages. */
export const DOCS_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
