/**
 * Slices of the sign-in screens (spec: Authorization code flow, item 2): the
 * decisions the consent step offers, a sign-in alone or beside another, the
 * wrong credentials, and the two things the consent step shows.
 */
import type { SliceDeclarations } from './types.js';

const ITEM_2 = 'Authorization code flow, item 2: "The user signs in with a previously verified e-mail address and password, then verifies by an SMS text message …, then sees who is requesting access and what is authorized, and approves or cancels."';

export const SIGN_IN_SLICES: SliceDeclarations = {
  dimensions: [
    { id: 'decision', title: 'The user\'s answer at the consent step', source: `${ITEM_2} Item 3: "On approval the query carries code and state. On cancellation the query carries error=access_denied and state."`, values: ['approve', 'deny'] },
    { id: 'sign-ins', title: 'A sign-in alone, or interleaved with another user\'s (or the same user\'s) sign-in', source: `${ITEM_2} Every user signs in this way, whoever else is signing in at the time: nothing in the spec lets one sign-in end another.`, values: ['alone', 'interleaved'] },
    { id: 'credential', title: 'What is wrong with the e-mail address and password', source: `${ITEM_2} The e-mail address is the account's and the password is its password: a wrong password, or an e-mail address of no account.`, values: ['wrong-password', 'unknown-email'] },
    { id: 'shown', title: 'What the consent step shows', source: `${ITEM_2} "who is requesting access and what is authorized"`, values: ['requester', 'authorized'] },
  ],
  slices: {
    'OAUTH-SIGN-IN-SCREENS': { decision: 'all', 'sign-ins': 'all' },
    'OAUTH-SIGN-IN-WRONG-PASSWORD': { credential: 'all' },
    // Every application's authorization request starts with the user's sign-in (the second credential of the fixtures too).
    'OAUTH-SIGN-IN-STEP': { client: 'all' },
    // "then sees who is requesting access and what is authorized": whichever application requests it (the second credential of the fixtures too).
    'OAUTH-CONSENT-SHOWS-REQUEST': { shown: 'all', client: 'all' },
  },
  noFault: {
    'OAUTH-SIGN-IN-SCREENS@sign-ins=alone': 'A sign-in alone is the decision slices\' own sign-in: a fault that breaks it breaks them (OAUTH-SIGN-IN-SCREENS@decision=approve is that fault); none can break it and leave every decision right.',
  },
};
