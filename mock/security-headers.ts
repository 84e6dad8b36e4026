/**
 * Security headers on every answer of the mock, through helmet
 * (finding 5, RFC 9700 §4.16 clickjacking): the pages may not be framed
 * (X-Frame-Options DENY and CSP frame-ancestors 'none'), load nothing from
 * elsewhere, and run no script. Forms may post to the mock itself and, since
 * the consent form ends in a redirect there, to the registered redirect URI.
 * The mock speaks plain HTTP on loopback: no HSTS, no upgrade-insecure-requests.
 */
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { MockContext } from './context.js';

/** The CSP source that admits the redirect URI: its origin, or its scheme when it has no origin (app-claimed schemes). */
export function redirectSource(redirectUri: string): string {
  if (!URL.canParse(redirectUri)) return "'self'";
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
}

export async function registerSecurityHeaders(app: FastifyInstance, ctx: MockContext): Promise<void> {
  // Built once: @fastify/helmet builds helmet's middleware again on every request, which
  // cost the token endpoint more than the headers themselves. The redirect URI's CSP
  // source is still read per request (helmet calls the directive's function each time).
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        baseUri: ["'none'"],
        formAction: ["'self'", () => redirectSource(ctx.credentials.redirectUri)],
        frameAncestors: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined));
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
