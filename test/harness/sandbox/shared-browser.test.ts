/** Which runs start the run's Chromium (harness/sandbox/shared-browser.ts): only those that drive the sign-in screens. */
import { describe, expect, it } from 'vitest';
import { runDrivesSignIn } from '../../../harness/sandbox/shared-browser.js';

describe('the run\'s Chromium is started only for a run that drives the sign-in screens', () => {
  it('a whole run with the screens on starts it', () => {
    expect(runDrivesSignIn({})).toBe(true);
  });
  it('--no-sign-in (LOCKCONF_SIGN_IN=off) starts none', () => {
    expect(runDrivesSignIn({ LOCKCONF_SIGN_IN: 'off' })).toBe(false);
  });
  it('an --only that selects one of the screens\' requirements starts it; one without them starts none', () => {
    expect(runDrivesSignIn({ LOCKCONF_SELECTION: JSON.stringify(['TOKEN-RESPONSE-JSON', 'OAUTH-SIGN-IN-WRONG-SMS']) })).toBe(true);
    expect(runDrivesSignIn({ LOCKCONF_SELECTION: JSON.stringify(['TOKEN-RESPONSE-JSON']) })).toBe(false);
  });
});
