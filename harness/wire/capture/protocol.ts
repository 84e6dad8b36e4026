/**
 * What the capture server and its client agree on: where the server is, the
 * limits it keeps, and the wire form of a delivery (rawBody as base64).
 */
import type { Delivery } from '../../contracts.js';
import type { DoorMap } from './doors.js';

export interface CaptureConnection {
  controlUrl: string;
  publicBaseUrl: string;
  token: string;
  /** The other doors of the inboxes (doors.ts), each a base url or why it is missing; absent when none was asked for. */
  doors?: DoorMap;
}

export const CAPTURE_BODY_LIMIT = 1024 * 1024;
/** Memory bounds: the oldest deliveries (and inboxes) go first. */
export const MAX_DELIVERIES = 10_000;
export const MAX_DELIVERY_BYTES = 64 * 1024 * 1024;
export const MAX_INBOXES = 10_000;
/** Longest a long poll or an inbox's answer delay may be. */
export const MAX_WAIT_MS = 60_000;

/** What the server keeps of a delivery: the Delivery of contracts.ts before its body is decoded. */
export type StoredDelivery = Omit<Delivery, 'bodyText' | 'json'>;

/** The wire form of a delivery: rawBody as base64. */
export interface DeliveryJson extends Omit<StoredDelivery, 'rawBody'> {
  rawBody: string;
}
