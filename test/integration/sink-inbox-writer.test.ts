/** The inbox writer's worker thread: failures reject exactly their own batch, with the real reason. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type InboxDelivery, InboxWriter } from '../../src/sink/inbox-writer.js';
import { INBOX_DB_FILE, openInboxDb } from '../../src/state/inbox-db.js';

const delivery = (hookId: string): InboxDelivery => ({
  hookId,
  receivedAt: '2026-11-23T08:00:00.000Z',
  body: Buffer.from('{"documents":[]}'),
  documents: 0,
});

describe('InboxWriter', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a batch its worker could not commit with the reason, then commits the next once it can', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cw-inbox-writer-')), 'not-yet');
    dirs.push(dir);
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

  it('groups deliveries queued together into one commit and answers each with its id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cw-inbox-writer-'));
    dirs.push(dir);
    openInboxDb(dir).close();
    const writer = new InboxWriter(join(dir, INBOX_DB_FILE));
    const ids = await Promise.all(['a', 'b', 'c'].map((h) => writer.append(delivery(h))));
    expect(new Set(ids).size).toBe(3);
    expect(writer.stats()).toMatchObject({ commits: 1, committed: 3, queued: 0 });
    await writer.close();
    await expect(writer.append(delivery('late'))).rejects.toThrow(/closed/);
  });
});
