/**
 * --expect FILE: known deviations of a target that should not fail its run.
 *
 * Two formats:
 * - text: one requirement ID per line, optionally followed by `# comment`;
 *   blank lines and lines starting with # are ignored;
 * - JSON: ["ID", …], {"ID": "comment", …} or {"expected": [ "ID" | {"id", "comment"} ]}.
 *
 * A listed requirement that fails is reported "failed (expected)"; one that now
 * passes is reported stale, so the list shrinks as the target gets fixed.
 */
import { readFile } from 'node:fs/promises';
import { isRequirementId } from '../catalog/index.js';

export type ExpectedDeviations = ReadonlyMap<string, string>; // ID → comment ('' when none)

export class ExpectFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpectFileError';
  }
}

function checkId(id: unknown, where: string): string {
  if (typeof id !== 'string' || !isRequirementId(id.trim())) {
    throw new ExpectFileError(`${where}: ${JSON.stringify(id)} is not a requirement ID of the catalog`);
  }
  return id.trim();
}

function fromJson(data: unknown, origin: string): Map<string, string> {
  const out = new Map<string, string>();
  const list = Array.isArray(data) ? data : data && typeof data === 'object' && 'expected' in data ? (data as { expected: unknown }).expected : null;
  if (Array.isArray(list)) {
    list.forEach((item, i) => {
      if (item && typeof item === 'object' && 'id' in item) {
        const comment = (item as { comment?: unknown }).comment;
        out.set(checkId((item as { id: unknown }).id, `${origin} [${i}]`), typeof comment === 'string' ? comment : '');
      } else {
        out.set(checkId(item, `${origin} [${i}]`), '');
      }
    });
    return out;
  }
  if (data && typeof data === 'object') {
    for (const [id, comment] of Object.entries(data)) {
      out.set(checkId(id, origin), typeof comment === 'string' ? comment : '');
    }
    return out;
  }
  throw new ExpectFileError(`${origin}: expected a list of requirement IDs or an object keyed by ID`);
}

function fromText(text: string, origin: string): Map<string, string> {
  const out = new Map<string, string>();
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    const hash = trimmed.indexOf('#');
    const id = (hash >= 0 ? trimmed.slice(0, hash) : trimmed).trim();
    const comment = hash >= 0 ? trimmed.slice(hash + 1).trim() : '';
    out.set(checkId(id, `${origin} line ${i + 1}`), comment);
  });
  return out;
}

/** Parse an expect file's content (JSON when it looks like JSON, else the text format). */
export function parseExpectations(content: string, origin = 'expect file'): ExpectedDeviations {
  const trimmed = content.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let data: unknown;
    try {
      data = JSON.parse(trimmed);
    } catch (err) {
      throw new ExpectFileError(`${origin}: not valid JSON (${(err as Error).message})`);
    }
    return fromJson(data, origin);
  }
  return fromText(content, origin);
}

export async function loadExpectFile(path: string): Promise<ExpectedDeviations> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (err) {
    throw new ExpectFileError(`--expect ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseExpectations(content, path);
}
