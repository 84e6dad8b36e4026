/**
 * The digests that tie a run to the texts it was judged against: SHA-256 of the
 * spec's text and of the requirement catalog, and a canonical JSON (keys sorted)
 * so the same object always hashes the same.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Requirement } from '../catalog/index.js';

export const SPEC_PATH = 'docs/spec/lock-access-service.md';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON with object keys sorted at every depth, undefined members left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** SHA-256 of the spec's text as shipped in `root`; null when it cannot be read. */
export async function specDigest(root: string): Promise<string | null> {
  try {
    return sha256Hex(await readFile(join(root, SPEC_PATH)));
  } catch {
    return null;
  }
}

/** SHA-256 of the catalog: every requirement's fields, in catalog order, as canonical JSON. */
export function catalogDigest(catalog: readonly Requirement[]): string {
  return sha256Hex(canonicalJson(catalog));
}
