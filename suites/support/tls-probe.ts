/**
 * A loopback port for an https: webhook url. The harness holds no certificate a target
 * would trust, so it cannot answer an https delivery; it can see whether the target began
 * one at the registered host and port: a TLS connection opens with a handshake record
 * (content type 0x16, then version 0x03 0x0N), a plain HTTP request with its method's
 * letters. Each connection's first bytes are read, then the connection is closed.
 */
import { firstBytesPort } from './first-bytes-port.js';

export interface ConnectionStart {
  /** The first bytes are a TLS handshake record. */
  tls: boolean;
  /** What they were, safe to report: "TLS handshake", or the leading letters of a plain request (its method). */
  began: string;
}

export interface TlsProbe {
  /** https://127.0.0.1:<port>/tls-probe */
  url: string;
  /** The first connection that sent bytes, or null when none came within timeoutMs. */
  firstConnection(timeoutMs: number): Promise<ConnectionStart | null>;
  close(): Promise<void>;
}

/** How the first bytes of a connection began; never more than a request's method (its headers may carry secrets). */
export function connectionStart(bytes: Buffer): ConnectionStart {
  if (bytes.length >= 2 && bytes[0] === 0x16 && bytes[1] === 0x03) return { tls: true, began: 'TLS handshake' };
  const letters = /^[A-Za-z]{1,10}/.exec(bytes.subarray(0, 10).toString('latin1'))?.[0];
  return { tls: false, began: letters ? `plain text "${letters}"` : `byte 0x${(bytes[0] ?? 0).toString(16).padStart(2, '0')}` };
}

export async function tlsProbe(): Promise<TlsProbe> {
  const port = await firstBytesPort(connectionStart);
  return { url: `https://127.0.0.1:${port.port}/tls-probe`, firstConnection: port.first, close: port.close };
}
