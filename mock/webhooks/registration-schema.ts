/**
 * The webhook registration body (spec: Webhook registration (request body)), validated
 * with zod. The spec leaves required/optional open; the mock requires url and clientID,
 * takes method (only "POST", the one the spec shows), header and token (both or neither),
 * and notificationTypes (absent: every group of the kind) as optional, and refuses
 * unknown fields so a misspelt field is reported instead of silently ignored.
 */
import { z } from 'zod';
import { LOCK_GROUPS, USER_GROUPS, type Group } from './groups.js';

/** RFC 9110 §5.6.2 token: the characters a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, space and tab: a header value that survives every HTTP stack unchanged. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** Headers the delivery sets itself, or that HTTP/1.1 reserves for the connection. */
const RESERVED_HEADERS = new Set([
  'content-type', 'x-signature', 'host', 'content-length', 'transfer-encoding', 'connection',
  'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection',
]);

const url = z
  .string()
  .max(2048, 'url is longer than 2048 characters')
  .refine((value) => {
    try {
      const parsed = new URL(value);
      return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, 'url must be an absolute http or https URL');

const header = z
  .string()
  .min(1, 'header must name an HTTP header')
  .max(256, 'header is longer than 256 characters')
  .regex(HEADER_NAME, 'header must be a valid HTTP header name (RFC 9110 token characters)')
  .refine((value) => !RESERVED_HEADERS.has(value.toLowerCase()), 'header names a header the delivery sets itself');

const token = z
  .string()
  .max(4096, 'token is longer than 4096 characters')
  .regex(HEADER_VALUE, 'token must be printable ASCII (it is sent as a header value)');

function notificationTypes(allowed: readonly Group[], kind: string) {
  return z
    .array(z.string(), 'notificationTypes must be an array of strings')
    .min(1, 'notificationTypes must name at least one group')
    .max(32, 'notificationTypes names too many groups')
    .superRefine((groups, issues) => {
      for (const group of groups) {
        if (!(allowed as readonly string[]).includes(group)) {
          issues.addIssue({ code: 'custom', message: `notificationTypes: "${group.slice(0, 40)}" is not a ${kind} group (allowed: ${allowed.join(', ')})` });
        }
      }
    })
    .transform((groups) => [...new Set(groups)] as Group[]);
}

function registrationSchema(allowed: readonly Group[], kind: string) {
  return z.strictObject(
    {
      url,
      method: z.literal('POST', 'method must be "POST"').optional(),
      clientID: z.string('clientID must be a string').min(1, 'clientID must not be empty').max(256),
      header: header.optional(),
      token: token.optional(),
      notificationTypes: notificationTypes(allowed, kind).optional(),
    },
    'the body must be a JSON object',
  )
    .refine((body) => (body.header === undefined) === (body.token === undefined), { message: 'header and token go together: give both or neither', path: ['header'] })
    .transform((body) => ({ ...body, method: 'POST' as const, header: body.header ?? null, token: body.token ?? null, notificationTypes: body.notificationTypes ?? [...allowed] }));
}

/** The optional fields a registration body left out (the slice values `registration-fields` of its requirement). */
export function absentFields(body: unknown): string[] {
  const has = (field: string) => typeof body === 'object' && body !== null && Object.prototype.hasOwnProperty.call(body, field);
  return [
    ...(!has('header') && !has('token') ? ['no-header-token'] : []),
    ...(!has('method') ? ['no-method'] : []),
    ...(!has('notificationTypes') ? ['no-notification-types'] : []),
  ];
}

export const lockRegistrationSchema = registrationSchema(LOCK_GROUPS, 'lock');
export const userRegistrationSchema = registrationSchema(USER_GROUPS, 'user');

export type RegistrationBody = z.output<typeof lockRegistrationSchema>;

export interface BodyProblem {
  field: string;
  message: string;
}

/** The first problem of a failed parse, naming the field. */
export function firstProblem(error: z.ZodError, input: unknown): BodyProblem {
  const issue = error.issues[0];
  if (!issue) return { field: '(body)', message: 'invalid registration body' };
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => k.slice(0, 40));
    return { field: keys[0] ?? '(body)', message: `unknown field(s): ${keys.join(', ')}` };
  }
  const field = issue.path.length > 0 ? String(issue.path[0]) : '(body)';
  const missing = issue.path.length === 1 && typeof input === 'object' && input !== null && !Object.prototype.hasOwnProperty.call(input, field);
  const message = missing ? `${field} is required` : issue.message;
  return { field, message: message.startsWith(field) || field === '(body)' ? message : `${field}: ${message}` };
}
