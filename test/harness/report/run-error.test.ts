/** The one message of a run whose global setup failed. */
import { describe, expect, it } from 'vitest';
import { runErrorFrom, setupErrorFromOutput } from '../../../harness/report/run-error.js';

describe('run errors', () => {
  it('keeps the harness code of an unhandled error, else ERR_SETUP_FAILED, one line', () => {
    expect(runErrorFrom([{ message: 'target unreachable\n    at x', code: 'ERR_TARGET_UNREACHABLE' }])).toEqual({ code: 'ERR_TARGET_UNREACHABLE', message: 'target unreachable' });
    expect(runErrorFrom([{ message: 'boom' }]).code).toBe('ERR_SETUP_FAILED');
  });

  it('reads the error vitest printed for a global setup that threw, without its stack', () => {
    const printed = ' FAIL  something\nError: listen EADDRNOTAVAIL: address not available 192.0.2.1\n    at Server.setupListenHandle (node:net:1918:21)\n';
    expect(setupErrorFromOutput(printed)).toEqual({ code: 'ERR_SETUP_FAILED', message: 'the run could not be set up: listen EADDRNOTAVAIL: address not available 192.0.2.1' });
    expect(setupErrorFromOutput('LockconfError: the token cache is locked\n  code: ERR_TOKEN_CACHE')).toEqual({ code: 'ERR_TOKEN_CACHE', message: 'the token cache is locked' });
    expect(setupErrorFromOutput('nothing to see')).toBeNull();
  });
});
