/**
 * The capture server's other doors: the same inboxes, reached at another host or
 * port of this machine, so a webhook url's host and port can be sliced (slices
 * `url-part` other-loopback, ipv6-literal, port-4-digits). Every door stays on
 * loopback: another address of 127.0.0.0/8 (Linux routes all of it to lo), the IPv6
 * loopback literal, or a 4-digit port of 127.0.0.1. Never a host name.
 *
 * The host doors take the main port when it is free there, so a delivery a target
 * wrongly sends to 127.0.0.1 instead arrives, recorded with the address it reached
 * (Delivery.receivedOn): the test fails at once, saying where it went.
 * A door that cannot be opened is missing, with the reason: its slice is not tested.
 */
import type { FastifyInstance } from 'fastify';
import type { CaptureDoors } from '../../contracts.js';

/** The doors and the address each listens on; a port of 0 means the main server's port. */
export const DOORS = {
  'other-loopback': { host: '127.0.0.2', what: 'another IPv4 loopback address (127.0.0.2)' },
  'ipv6-literal': { host: '::1', what: 'the IPv6 loopback literal [::1]' },
  'port-4-digits': { host: '127.0.0.1', what: 'a 4-digit port of 127.0.0.1' },
} as const satisfies Record<keyof CaptureDoors, { host: string; what: string }>;
export type DoorName = keyof typeof DOORS;

/** Each door: the base url of its inboxes, or why it is missing. */
export type DoorMap = CaptureDoors;

/** Bounded: a few random 4-digit ports, the first free one taken. */
const FOUR_DIGIT_TRIES = 12;
const FOUR_DIGIT_LOW = 2000;
const FOUR_DIGIT_HIGH = 9999;

function baseOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function why(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e?.code ?? e?.message ?? String(err);
}

/** Listens `app` on host at the first port of `ports` that can be bound; throws the last error. */
async function listenFirst(app: FastifyInstance, host: string, ports: number[]): Promise<number> {
  let last: unknown = null;
  for (const port of ports) {
    try {
      await app.listen({ host, port });
      const addr = app.server.address();
      return typeof addr === 'object' && addr ? addr.port : port;
    } catch (err) {
      last = err;
      if ((err as { code?: string }).code !== 'EADDRINUSE') break;
    }
  }
  throw last;
}

function fourDigitPorts(): number[] {
  return Array.from({ length: FOUR_DIGIT_TRIES }, () => FOUR_DIGIT_LOW + Math.floor(Math.random() * (FOUR_DIGIT_HIGH - FOUR_DIGIT_LOW + 1)));
}

/**
 * Opens every door, each a fresh app from `makeApp` (the inbox routes only, on the
 * main server's store). Returns the doors and a close that ends them all.
 */
export async function openDoors(makeApp: () => Promise<FastifyInstance>, mainPort: number): Promise<{ doors: DoorMap; close(): Promise<void> }> {
  const doors: DoorMap = {};
  const apps: FastifyInstance[] = [];
  for (const [name, door] of Object.entries(DOORS) as Array<[DoorName, (typeof DOORS)[DoorName]]>) {
    const app = await makeApp();
    const ports = name === 'port-4-digits' ? fourDigitPorts() : [mainPort, 0];
    try {
      const port = await listenFirst(app, door.host, ports);
      apps.push(app);
      doors[name] = { base: baseOf(door.host, port) };
    } catch (err) {
      await app.close().catch(() => undefined);
      doors[name] = { missing: `the capture server could not listen on ${door.what} (${why(err)})` };
    }
  }
  return { doors, close: async () => void (await Promise.all(apps.map((a) => a.close()))) };
}

/** Why no door is opened when the target reaches the capture server through capture.publicUrl. */
export function doorsBehindPublicUrl(): DoorMap {
  const missing = 'the target reaches the capture server through capture.publicUrl: another loopback address or port of this machine is not reachable from it';
  return Object.fromEntries(Object.keys(DOORS).map((name) => [name, { missing }])) as DoorMap;
}

/** host:port of a socket's local address, an IPv6 address in brackets, an IPv4-mapped one as IPv4. */
export function hostPort(address: string | undefined, port: number | undefined): string | undefined {
  if (address === undefined || port === undefined) return undefined;
  const host = address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
