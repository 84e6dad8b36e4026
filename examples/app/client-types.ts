/**
 * The example client's configuration, tokens and session, and the two ways a step ends
 * without a token: the user authorizes (again), or waits for the refresh in flight.
 */
export interface ClientConfig {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  redirectUri: string;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** When the access token was received (the spec: a stored token carries its receipt date). */
  receivedAt: number;
}

/** One user's session in the application (kept server-side, named by a cookie). */
export interface Session {
  id: string;
  /** The state of the authorization request in progress. */
  state: string | null;
  tokens: Tokens | null;
  /** The last code exchanged (only the reuses-code fault looks at it). */
  lastCode?: string;
  /** Refreshes since the code grant (0: the next presents the code grant's refresh token). */
  refreshLinks?: number;
  /** Authorizations started in this session (none: a browser the application has not sent to authorization). */
  flows?: number;
  /** The last grant (code exchange or refresh) and the API calls made since (the point of the flow a 401 lands at, for the faults). */
  lastGrant?: 'code' | 'refresh';
  callsSinceGrant?: number;
  /** The refresh in flight, which a second request for one joins (a double click, two tabs). */
  refreshing?: Promise<void> | null;
}

/** The user has to go through authorization (again). */
export class NeedsAuthorization extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'NeedsAuthorization';
  }
}

/** A refresh was asked for while one of the same session is running (the variant refuses-concurrent-refresh: the user is told to wait). */
export class RefreshInProgress extends Error {
  constructor() {
    super('a refresh of this session is already in progress');
    this.name = 'RefreshInProgress';
  }
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}
