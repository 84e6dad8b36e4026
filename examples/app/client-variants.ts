/**
 * Legal variants of the example application, for lockconf's own tests: each makes
 * a choice the spec leaves to the application, differently from the example's
 * default. Every variant must be judged conformant (no MUST fails); `warns` names
 * the SHOULDs a variant is known to miss (and so must warn, never fail); `untested`
 * what its choice leaves nothing to judge on, a whole rule (`ID`) or one declared slice
 * of it (`ID@dim=value`): not tested, with the reason, never failed nor warned.
 */
export const CLIENT_VARIANTS = {
  'reconnect-button-on-401': {
    description: 'after a 401 (or any lost connection) shows a page with a "Reconnect" link instead of redirecting to authorization at once',
    warns: [],
    untested: [],
  },
  'hex-state': {
    description: 'uses a state of 32 lower-case hex digits instead of base64url',
    warns: [],
    untested: [],
  },
  'state-in-global-set': {
    description: 'checks the state against every state it sent and has not seen back, not against the browser session\'s own (the spec\'s "matches what it sent")',
    warns: ['CLIENT-STATE-SESSION-BOUND'],
    untested: [],
  },
  'gives-up-on-wrong-state': {
    description: 'gives up the sign-in in progress on any redirect back whose state does not match (approval or cancellation alike): the user starts again',
    warns: [],
    // Its answer to a wrong state on an approval is the same as on a cancellation: nothing tells a checked cancellation from an unchecked one.
    untested: ['CLIENT-CANCELLATION-STATE-CHECKED'],
  },
  'refuses-concurrent-refresh': {
    description: 'answers 409 ("being refreshed, try again") to a refresh asked for while one of the same session runs, instead of joining it: one refresh is sent, the user stays signed in',
    warns: [],
    untested: [],
  },
  'host-allow-list': {
    description: 'answers 400 to a request whose Host is not its own configured name (an allow-list of host names, as Django\'s ALLOWED_HOSTS or ASP.NET\'s host filtering do)',
    warns: [],
    // The browser that reaches it under another loopback name is refused before any authorization request: nothing to judge that slice on.
    untested: ['CLIENT-AUTHZ-REDIRECT-URI@reached-as=other-name'],
  },
} as const satisfies Record<string, { description: string; warns: readonly string[]; untested: readonly string[] }>;

export type ClientVariant = keyof typeof CLIENT_VARIANTS;

export function isClientVariant(name: string): name is ClientVariant {
  return Object.hasOwn(CLIENT_VARIANTS, name);
}
