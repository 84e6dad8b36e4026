/**
 * Named mistakes of the example receiver (receiver.ts), each the kind of bug a
 * real receiver has. lockconf's self-verification (test/receiver/) runs the
 * receiver suites against the example with each one switched on and checks the
 * requirement named here catches it; with none on, the example is conformant.
 */
export const RECEIVER_FAULTS = {
  'accepts-bad-signature': {
    requirement: 'RECEIVER-REJECTS-TAMPERED-BODY',
    description: 'Reads X-Signature but never compares it: any signature passes.',
  },
  'no-tolerance': {
    requirement: 'RECEIVER-REJECTS-STALE-T',
    description: 'Never compares t with the current time: a delivery recorded a day ago passes again.',
  },
  'ten-minute-tolerance': {
    requirement: 'RECEIVER-TOLERANCE-5-MIN',
    description: 'Tolerates timestamps up to 10 minutes old instead of the recommended 5.',
  },
  'reserialized-json': {
    requirement: 'RECEIVER-SIGNATURE-RAW-BODY',
    description: 'Verifies the signature over JSON.stringify(JSON.parse(body)) instead of the raw bytes received.',
  },
  'ignores-custom-header': {
    requirement: 'RECEIVER-CUSTOM-HEADER',
    description: "Never looks at the registration's custom header and token.",
  },
  'accepts-body-only-signature': {
    requirement: 'RECEIVER-REJECTS-BODY-ONLY-SIGNATURE',
    description: 'Also accepts an HMAC of the body alone, without t and the dot.',
  },
  'also-accepts-client-secret': {
    requirement: 'RECEIVER-REJECTS-WRONG-KEY',
    description: 'Verifies against the client secret as well as the API key.',
  },
  'rejects-unknown-event-types': {
    requirement: 'RECEIVER-UNKNOWN-EVENT-TYPE',
    description: 'Refuses (422) an EventType outside the seven the spec lists.',
  },
  'rejects-lockid-array': {
    requirement: 'RECEIVER-EVENT-BRIDGE',
    description: 'Refuses (422) a LockID that is not a string, as bridge events carry.',
  },
  'requires-full-user': {
    requirement: 'RECEIVER-EVENT-OPERATION-MANUAL',
    description: 'Refuses (422) a User object without FirstName, as manual and door events carry.',
  },
  'rejects-unknown-pin-action': {
    requirement: 'RECEIVER-UNKNOWN-PIN-ACTION',
    description: 'Refuses (422) a Pin.action other than intent.',
  },
} as const satisfies Record<string, { requirement: string; description: string }>;

export type ReceiverFaultName = keyof typeof RECEIVER_FAULTS;

export const RECEIVER_FAULT_NAMES = Object.keys(RECEIVER_FAULTS) as ReceiverFaultName[];
