/**
 * The token cache's journal (`<cache>.journal`): the successor of a redeemed
 * refresh token, appended in one write(2) the moment the token response arrives,
 * before the slower atomic, fsynced rewrite of the cache file. It survives the
 * death of the process (the common crash); the next open() promotes the entry
 * whose redeemed token is the one still in the file, following the chain.
 *
 * A redeemed token is named by its hash: it is spent, but still not worth writing down.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import type { TokenSet } from '../contracts.js';

export class RefreshJournal {
  readonly path: string;

  constructor(cachePath: string) {
    this.path = cachePath + '.journal';
  }

  /** Records that `redeemed` was spent and `next` replaced it. */
  append(redeemed: string, next: TokenSet): void {
    const line = JSON.stringify({ redeemed: fingerprint(redeemed), ...next }) + '\n';
    const fd = openSync(this.path, 'a', 0o600);
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
  }

  /** The last successor of `current` along the journal's chain, or undefined when the journal has none. */
  async successorOf(current: string | undefined, now: number): Promise<TokenSet | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return undefined;
    }
    const entries = new Map<string, TokenSet>();
    for (const line of text.split('\n')) {
      try {
        const e = JSON.parse(line) as TokenSet & { redeemed: string };
        if (typeof e.redeemed === 'string' && typeof e.refreshToken === 'string' && typeof e.accessToken === 'string') {
          entries.set(e.redeemed, { accessToken: e.accessToken, refreshToken: e.refreshToken, expiresIn: Number(e.expiresIn) || 0, receivedAt: Number(e.receivedAt) || now });
        }
      } catch {
        // a torn last line: the process died inside the write, before the token was complete
      }
    }
    let successor: TokenSet | undefined;
    for (let key = current && fingerprint(current); key && entries.has(key);) {
      successor = entries.get(key)!;
      entries.delete(key);
      key = fingerprint(successor.refreshToken);
    }
    return successor;
  }

  async drop(): Promise<void> {
    await unlink(this.path).catch(() => {});
  }
}

function fingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
