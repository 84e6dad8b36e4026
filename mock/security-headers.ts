/**
 * Security headers on every answer of the mock, through @fastify/helmet
 * (finding 5, RFC 9700 §4.16 clickjacking): the pages may not be framed
 * (X-Frame-Options DENY and CSP frame-ancestors 'none'), load nothing from
 * elsewhere, and run no script. Forms may post to the mock itself and, since
 * the consent form ends in a redirect there, to the registered redirect URI.
 * The mock speaks plain HTTP on loopback: no HSTS, no upgrade-insecure-requests.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { MockContext } from './context.js';

/** The CSP source that admits the redirect URI: its origin, or its scheme when it has no origin (app-claimed schemes). */
export function redirectSource(redirectUri: string): string {
  if (!URL.canParse(redirectUri)) return "'self'";
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
}

export async function registerSecurityHeaders(app: FastifyInstance, ctx: MockContext): Promise<void> {
  await app.register(helmet, {
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
  // The API explorer at /docs (@fastify/swagger-ui) runs its own scripts and styles, served
  // by the mock itself: it alone may load them from 'self'. Framing stays forbidden.
  app.addHook('onSend', async (request, reply) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/')) {
      reply.header('content-security-policy', DOCS_CSP);
    }
  });
}

/** The CSP of the API explorer's pages. */
export const DOCS_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
