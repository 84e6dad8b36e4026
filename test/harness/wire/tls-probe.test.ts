/** The loopback port that stands for an https webhook url (suites/support/tls-probe.ts): a TLS handshake told from plain HTTP. */
import { connect as tlsConnect } from 'node:tls';
import { describe, expect, test } from 'vitest';
import { connectionStart, tlsProbe } from '../../../suites/support/tls-probe.js';

describe('tls probe', () => {
  test('a TLS client\'s first bytes are a handshake; a plain request shows only its method', () => {
    expect(connectionStart(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]))).toEqual({ tls: true, began: 'TLS handshake' });
    expect(connectionStart(Buffer.from('POST /tls-probe HTTP/1.1\r\nx-token: secret\r\n'))).toEqual({ tls: false, began: 'plain text "POST"' });
    expect(connectionStart(Buffer.from([0x00, 0x01]))).toEqual({ tls: false, began: 'byte 0x00' });
  });

  test('a TLS connection to its https url is seen as one', async () => {
    const probe = await tlsProbe();
    try {
      const { port, hostname, protocol } = new URL(probe.url);
      expect(protocol).toBe('https:');
      const socket = tlsConnect({ host: hostname, port: Number(port), rejectUnauthorized: false });
      socket.on('error', () => {});
      expect(await probe.firstConnection(5_000)).toEqual({ tls: true, began: 'TLS handshake' });
      socket.destroy();
    } finally {
      await probe.close();
    }
  });
});
