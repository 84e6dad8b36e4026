/**
 * fastify's schema compilers for a server whose route schemas document only
 * (documented(), docs/common-schemas.ts, gives every such route its own compilers).
 * fastify's defaults load Ajv and fast-json-stringify when the server is built,
 * whether a route uses them or not (about 0.15 s of CPU in every process that starts
 * the mock or the capture server); these load nothing. A route that would need them
 * (a schema that validates or serializes, without compilers of its own) stops the
 * server's start with a message saying so, instead of being checked by neither.
 */
function refuse(what: string): never {
  throw new Error(`this server's schemas document only: a route's ${what} schema needs compilers of its own (documented())`);
}

export const DOCUMENTATION_ONLY_COMPILERS = {
  compilersFactory: {
    buildValidator: () => () => refuse('validation'),
    buildSerializer: () => () => refuse('response'),
  },
};
