/** The regular files under a directory, at any depth (absolute paths when `dir` is). */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
