/**
 * What a grading mock (`npm run mock -- --grade`) keeps of every request an
 * application's client makes, and what GET /_control/grading answers. No secret
 * is kept in clear: tokens and codes are fingerprints (a short SHA-256 prefix),
 * and the client secret is recorded only as the places it appeared.
 * The judgement (harness/client/judge.ts) reads nothing else.
 */
import { createHash } from 'node:crypto';

/** A short, one-way fingerprint of a token or code (never the value). */
export function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

/** Where a header value stood: as issued, missing, percent-encoded, or something else. */
export type HeaderValueState = 'ok' | 'missing' | 'url-encoded' | 'wrong';
/** How a form value a client sent stands against the real one: as it is, missing, altered by a body built without URL-encoding, or another value. */
export type FormValueState = 'ok' | 'missing' | 'not-encoded' | 'wrong';

interface Base {
  /** Position in the recording (1, 2, …). */
  seq: number;
  /** The mock's clock, epoch ms. */
  at: number;
  /** Order of arrival and of completion on one counter: a request that starts after another ended has startTick > its endTick. */
  startTick: number;
  endTick: number;
  /** The client the request belongs to (null when nothing in it names a known client). */
  clientId: string | null;
}

/** GET {auth_url}/authorization, as the user's browser sent it for the application. */
export interface AuthorizeEvent extends Base {
  type: 'authorize';
  hasClientId: boolean;
  hasRedirectUri: boolean;
  hasState: boolean;
  status: number;
  /** The components of redirect_uri (decoded) that differ from the registered one: scheme, host, port, path, query, case (absent without redirect_uri). */
  redirectUriParts?: string[];
  /** The parameters (client_id, redirect_uri, state) whose raw value holds a character URL-encoding escapes. */
  unencoded?: string[];
  /** Where the client secret appeared ('url'). */
  secretIn: string[];
}

/** The user's decision ended in a redirect back to the application (consent page or control /consent). */
export interface RedirectEvent extends Base {
  type: 'redirect';
  /** Fingerprint of the code the redirect carried; null on denial. */
  codeFp: string | null;
  denied: boolean;
}

/** A request to {auth_url}/access_token, whatever its method and shape. */
export interface TokenEvent extends Base {
  type: 'token';
  method: string;
  contentType: string | null;
  /** Field names of the form body (values never kept). */
  bodyFields: string[];
  /** Field names of the query string. */
  queryFields: string[];
  grantType: string | null;
  /** client_id and client_secret of the form body against the real ones (absent in recordings made before they were kept). */
  clientIdValue?: FormValueState;
  secretValue?: FormValueState;
  /** The body is not a form that decodes (broken percent-encoding). */
  malformed?: boolean;
  /** Form values a body built without URL-encoding (or encoded twice) altered, e.g. "code (not URL-encoded)". */
  encodingErrors?: string[];
  /** Form fields given more than once. */
  repeated?: string[];
  basicHeader: boolean;
  secretIn: string[];
  codeFp: string | null;
  refreshFp: string | null;
  status: number;
  issuedAccessFp: string | null;
  issuedRefreshFp: string | null;
}

/** A request to {base_url}. */
export interface ApiEvent extends Base {
  type: 'api';
  method: string;
  /** The route as the mock knows it (e.g. /webhook/:lockID), or the path. */
  route: string;
  apiKey: HeaderValueState;
  accessToken: HeaderValueState;
  accessFp: string | null;
  contentType: string | null;
  hasBody: boolean;
  secretIn: string[];
  status: number;
  /** The x-access-token of a successful answer. */
  rotatedFp: string | null;
  /** Whether the answer carried a body (absent in recordings made before it was kept). */
  answerBody?: boolean;
  /** POST /webhook/…: what the registration named. */
  registration: {
    kind: 'lock' | 'user';
    clientIdOwn: boolean | null;
    /** The string elements of notificationTypes. */
    groups: string[];
    /** Fields of a type other than the spec's (e.g. notificationTypes a string); absent in older recordings. */
    typeErrors?: string[];
  } | null;
  /** DELETE /webhook/:lockID/:clientID: whether the path names the client's own ID. */
  deleteClientIdOwn: boolean | null;
}

/** A marker lockconf's probes set (POST /_control/grading/mark), to judge what happened between two. */
export interface MarkEvent extends Base {
  type: 'mark';
  label: string;
}

export type GradedEvent = AuthorizeEvent | RedirectEvent | TokenEvent | ApiEvent | MarkEvent;

/** GET /_control/grading. */
export interface GradingRecording {
  grading: true;
  /**
   * The grading the events belong to (`?grading=ID`), or without it the grading in progress.
   * A grading runs from the mock's start, the end of the previous one or a clear, to the start
   * of the next (`POST /_control/grading/start`): a `--client` run judges one grading only.
   */
  gradingId: number;
  clients: string[];
  events: GradedEvent[];
  /** Events dropped because the recording was full (oldest kept). */
  dropped: number;
}
