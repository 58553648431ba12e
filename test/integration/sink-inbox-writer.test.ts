/** The inbox writer's worker thread: failures reject exactly their own batch, with the real reason. */
import { join } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type InboxDelivery, InboxWriter, MAX_GROUP_COMMIT } from '../../src/sink/inbox-writer.js';
import { INBOX_DB_FILE, INBOX_PAGE_SIZE, openInboxDb } from '../../src/state/inbox-db.js';
import { Database } from '../../src/state/sqlite-database.js';
import { tempDir } from '../helpers/temp-dir.js';

const delivery = (hookId: string): InboxDelivery => ({
  hookId,
  receivedAt: '2026-11-23T08:00:00.000Z',
  body: Buffer.from('{"documents":[]}'),
  documents: 0,
});

describe('InboxWriter', () => {
  it('rejects a batch its worker could not commit with the reason, then commits the next once it can', async () => {
    const dir = join(tempDir('cw-inbox-writer-'), 'not-yet');
    const committed: string[] = [];
    const writer = new InboxWriter(join(dir, INBOX_DB_FILE), {
      onCommitted: (deliveries) => committed.push(...deliveries.map((d) => d.hookId)),
    });
    // The folder does not exist: the worker cannot open the inbox.
    await expect(writer.append(delivery('A'))).rejects.toThrow(/inbox worker failed: .*(directory|open)/i);
    await expect(writer.append(delivery('A2'))).rejects.toThrow(/inbox worker failed/);
    const inbox = openInboxDb(dir); // creates the folder and the inbox
    try {
      const id = await writer.append(delivery('B'));
      expect(id).toBeGreaterThan(0);
      await writer.close();
      const rows = inbox.sqlite.prepare('select delivery_id, hook_id from deliveries').all();
      expect(rows).toEqual([{ delivery_id: id, hook_id: 'B' }]);
      expect(committed).toEqual(['B']);
    } finally {
      inbox.close();
    }
  });

  /** A new inbox whose write lock another connection holds until `other.exec('commit')`. */
  function lockedInbox(): { file: string; other: Database } {
    const dir = tempDir('cw-inbox-writer-');
    openInboxDb(dir).close();
    const other = new Database(join(dir, INBOX_DB_FILE));
    other.exec('begin immediate');
    return { file: join(dir, INBOX_DB_FILE), other };
  }

  it('groups deliveries queued together into one commit and answers each with its id', async () => {
    const dir = tempDir('cw-inbox-writer-');
    openInboxDb(dir).close();
    const writer = new InboxWriter(join(dir, INBOX_DB_FILE));
    const ids = await Promise.all(['a', 'b', 'c'].map((h) => writer.append(delivery(h))));
    expect(new Set(ids).size).toBe(3);
    expect(writer.stats()).toMatchObject({ commits: 1, committed: 3, queued: 0 });
    await writer.close();
    await expect(writer.append(delivery('late'))).rejects.toThrow(/closed/);
  });

  it('commits batches posted while a commit waits in one transaction, ids in arrival order', async () => {
    // Another connection holds the write lock: the worker's first commit has to wait for it.
    const { file, other } = lockedInbox();
    const writer = new InboxWriter(file);
    try {
      const first = writer.append(delivery('a'));
      await sleep(100);
      const second = writer.append(delivery('b'));
      await nextTurn();
      const third = writer.append(delivery('c'));
      await nextTurn();
      other.exec('commit');
      const ids = await Promise.all([first, second, third]);
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      // Three batches, posted in three turns; at most two transactions (b and c share one).
      expect(writer.stats().committed).toBe(3);
      expect(writer.stats().commits).toBeLessThan(3);
    } finally {
      await writer.close();
      other.close();
    }
  });

  it('under a burst, commits at most MAX_GROUP_COMMIT per transaction and answers every delivery in order', async () => {
    const { file, other } = lockedInbox(); // everything below queues while the lock is held
    const sizes: number[] = [];
    const counted = new InboxWriter(file, {
      onCommitted: (deliveries) => sizes.push(deliveries.length),
    });
    try {
      const total = 2 * MAX_GROUP_COMMIT + 500;
      const pending: Promise<number>[] = [];
      for (let i = 0; i < total; i++) {
        pending.push(counted.append(delivery(`h${i}`)));
        if (i % 700 === 0) await nextTurn();
      }
      await sleep(50);
      other.exec('commit');
      const ids = await Promise.all(pending);
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_GROUP_COMMIT);
    } finally {
      await counted.close();
      other.close();
    }
  });

  it('creates the inbox with 16 KB pages', () => {
    const dir = tempDir('cw-inbox-writer-');
    const inbox = openInboxDb(dir);
    try {
      expect(inbox.sqlite.pragma('page_size', { simple: true })).toBe(INBOX_PAGE_SIZE);
      expect(inbox.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      inbox.close();
    }
  });
});
