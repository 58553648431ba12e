import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/warehouse/duckdb/open-database.js';
import { APPENDER_FLUSH_ROWS } from '../../src/warehouse/duckdb/table-appender.js';
import { toPlain } from '../../src/warehouse/read/query-read-only.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';

async function readAll(path: string, sql: string): Promise<unknown[][]> {
  const db = await openDatabase(path, { access_mode: 'READ_ONLY' });
  try {
    return (await db.connection.runAndReadAll(sql)).getRows().map((row) => row.map(toPlain));
  } finally {
    db.close();
  }
}

describe('openStaging', () => {
  const data = tempDirEachTest('cw-warehouse-');

  it('converts every column type, fills missing columns with NULL and ignores unknown ones', async () => {
    const staging = await openStaging(data.dir, '2026-11-20');
    expect(existsSync(staging.path)).toBe(true);
    await staging.append({
      posts: [
        {
          campaign_id: 'c1',
          post_id: 123, // a number in a VARCHAR column becomes its text
          network: 'instagram',
          published_at: '2026-11-01T10:00:00.5Z',
          raw: '{"id":123,"extra":[1,2]}',
          first_seen_at: '2026-11-20T19:00:00Z',
          last_seen_at: '2026-11-20T19:00:00Z',
          not_a_column: 'ignored',
        },
      ],
      influencer_profiles: [
        {
          snapshot_date: '2026-11-20',
          influencer_id: 'i1',
          influence: '55.5',
          brand_score: null,
          true_reach: '1000',
          followers: 2000.4,
        },
      ],
    });
    await staging.append({ ['no_such_table' as 'posts']: [{ campaign_id: 'x' }] });
    await staging.close();
    expect(
      await readAll(
        staging.path,
        "select post_id, influencer_id, url, published_at, raw->>'$.extra[0]' from posts",
      ),
    ).toEqual([['123', null, null, '2026-11-01T10:00:00.500Z', '1']]);
    expect(await readAll(staging.path, 'select * from influencer_profiles')).toEqual([
      ['2026-11-20', 'i1', 55.5, null, 1000, 2000],
    ]);
    const types = await readAll(
      staging.path,
      'select typeof(true_reach), typeof(snapshot_date) from influencer_profiles',
    );
    expect(types).toEqual([['BIGINT', 'DATE']]);
  });

  it('names the table and column of a value it cannot convert', async () => {
    const staging = await openStaging(data.dir, 'bad');
    await expect(
      staging.append({ influencer_profiles: [{ snapshot_date: 'soon', influencer_id: 'i1' }] }),
    ).rejects.toThrow(/influencer_profiles\.snapshot_date/);
    await staging.close();
  });

  it('reopens an existing staging file as it is, so a resumed sync continues in it', async () => {
    const first = await openStaging(data.dir, 'resume');
    await first.append({
      influencer_tag_assignments: [
        { snapshot_date: '2026-11-20', campaign_id: 'c1', influencer_id: 'i1', tag_id: '1' },
      ],
    });
    await first.close();
    const second = await openStaging(data.dir, 'resume');
    await second.append({
      influencer_tag_assignments: [
        { snapshot_date: '2026-11-20', campaign_id: 'c2', influencer_id: 'i1', tag_id: '1' },
      ],
    });
    await second.close();
    expect(
      await readAll(second.path, 'select campaign_id from influencer_tag_assignments order by 1'),
    ).toEqual([['c1'], ['c2']]);
  });

  it('clearUnit removes a unit staged before the file was reopened (and only that unit)', async () => {
    const row = (segment: string, campaign: string) => ({
      snapshot_date: '2026-11-20',
      segment,
      campaign_id: campaign,
      post_id: 'p1',
      stat: 'likes',
      value: 1,
    });
    const first = await openStaging(data.dir, 'resume-clear');
    await first.append({ post_stats: [row('all', 'c1'), row('all', 'c2'), row('vip', 'c1')] });
    await first.close();
    const second = await openStaging(data.dir, 'resume-clear');
    await second.clearUnit('all', 'c1');
    await second.clearUnit('all', 'c3'); // never staged: nothing to remove
    await second.close();
    expect(await readAll(second.path, 'select segment, campaign_id from post_stats order by 1, 2')).toEqual([
      ['all', 'c2'],
      ['vip', 'c1'],
    ]);
  });

  it('loads more than one chunk and flushes on demand', async () => {
    const staging = await openStaging(data.dir, 'many');
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      snapshot_date: '2026-11-20',
      segment: 'all',
      campaign_id: 'c1',
      post_id: `p${i}`,
      stat: 'likes',
      value: i,
    }));
    await staging.append({ post_stats: rows });
    await staging.flush();
    await staging.close();
    expect(await readAll(staging.path, 'select count(*), sum(value) from post_stats')).toEqual([
      [5000, 12497500],
    ]);
  });

  it('serializes calls made without awaiting, across appender flushes', async () => {
    const staging = await openStaging(data.dir, 'big');
    const pages = 4;
    const perPage = Math.ceil(APPENDER_FLUSH_ROWS * 0.6);
    const calls: Promise<void>[] = [];
    for (let page = 0; page < pages; page += 1) {
      const rows = Array.from({ length: perPage }, (_, i) => ({
        snapshot_date: '2026-11-20',
        segment: 'all',
        campaign_id: `c${page}`,
        post_id: `p${i}`,
        stat: 'likes',
        value: 1,
      }));
      calls.push(staging.append({ post_stats: rows }));
    }
    calls.push(staging.clearUnit('all', 'c0'));
    await Promise.all(calls);
    await staging.close();
    await staging.close(); // idempotent
    expect(
      await readAll(staging.path, 'select count(*), count(distinct campaign_id) from post_stats'),
    ).toEqual([[perPage * (pages - 1), pages - 1]]);
    await expect(staging.append({ post_stats: [] })).rejects.toThrow(/closed/);
  });
  it('closeAfter runs its work on the flushed file before closing it, even when the work fails', async () => {
    const tag = (campaign: string) => ({
      influencer_tag_assignments: [
        { snapshot_date: '2026-11-20', campaign_id: campaign, influencer_id: 'i1', tag_id: '1' },
      ],
    });
    const staging = await openStaging(data.dir, 'checked');
    await staging.append(tag('c1')); // not flushed: closeAfter flushes it before the work
    const seen = await staging.closeAfter(async (connection) => {
      await connection.run("insert into influencer_tag_assignments values ('2026-11-20', 'c2', 'i1', '1')");
      return (
        await connection.runAndReadAll('select campaign_id from influencer_tag_assignments order by 1')
      ).getRows();
    });
    expect(seen).toEqual([['c1'], ['c2']]);
    await staging.close(); // waits for the first close, which closed the file
    expect(
      await readAll(staging.path, 'select campaign_id from influencer_tag_assignments order by 1'),
    ).toEqual([['c1'], ['c2']]);
    await expect(staging.closeAfter(async () => 1)).rejects.toThrow(/closed/);

    const failing = await openStaging(data.dir, 'failing');
    await failing.append(tag('c3'));
    await expect(
      failing.closeAfter(async () => {
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    await expect(failing.close()).rejects.toThrow('the work failed');
    // Closed: the file opens again, with the rows flushed before the work.
    expect(await readAll(failing.path, 'select campaign_id from influencer_tag_assignments')).toEqual([
      ['c3'],
    ]);
  });
});

describe('staging commits', () => {
  const data = tempDirEachTest('cw-staging-commit-');

  const stats = (campaign: string, count = 1) => ({
    post_stats: Array.from({ length: count }, (_, i) => ({
      snapshot_date: '2026-11-20',
      segment: 'all',
      campaign_id: campaign,
      post_id: `p${i}`,
      stat: 'likes',
      value: 1,
    })),
  });

  /** What a crash at this moment would leave: the file and its WAL copied, then opened. */
  async function afterCrash(path: string, sql: string): Promise<unknown[][]> {
    const copy = join(data.dir, `crash-${Math.random().toString(36).slice(2)}.duckdb`);
    copyFileSync(path, copy);
    if (existsSync(`${path}.wal`)) copyFileSync(`${path}.wal`, `${copy}.wal`);
    return readAll(copy, sql);
  }

  it('flushes asked for together share one commit, which holds every row appended before it', async () => {
    const staging = await openStaging(data.dir, 'grouped');
    await staging.append(stats('c1'));
    await staging.flush();
    expect(await afterCrash(staging.path, 'select campaign_id from post_stats')).toEqual([['c1']]);
    // Within GROUP_COMMIT_MS of that commit: the next waits, and every flush asked for
    // meanwhile joins it.
    void staging.append(stats('c2'));
    const second = staging.flush();
    void staging.append(stats('c3'));
    const third = staging.flush();
    expect(third).toBe(second);
    await third;
    expect(await afterCrash(staging.path, 'select campaign_id from post_stats order by 1')).toEqual([
      ['c1'],
      ['c2'],
      ['c3'],
    ]);
    // `now` starts the pending commit without waiting out the interval.
    await staging.append(stats('c4'));
    await staging.flush({ now: true });
    expect(await afterCrash(staging.path, 'select count(*) from post_stats')).toEqual([[4]]);
    await staging.close();
  });

  it('a flush pending when the file closes resolves with the close, which commits its rows', async () => {
    const staging = await openStaging(data.dir, 'closing');
    await staging.append(stats('c1'));
    await staging.flush();
    await staging.append(stats('c2'));
    const pending = staging.flush();
    await staging.close();
    await pending;
    expect(await readAll(staging.path, 'select count(*) from post_stats')).toEqual([[2]]);
  });

  it('closing keeps a small WAL for the publish to replay, and checkpoints a large one', async () => {
    const small = await openStaging(data.dir, 'small');
    await small.append(stats('c1', 100));
    await small.close();
    expect(existsSync(`${small.path}.wal`)).toBe(true);
    expect(await readAll(small.path, 'select count(*) from post_stats')).toEqual([[100]]);

    const large = await openStaging(data.dir, 'large');
    const raw = JSON.stringify({ caption: 'x'.repeat(900) });
    const posts = Array.from({ length: 8_000 }, (_, i) => ({
      campaign_id: 'c1',
      post_id: `p${i}`,
      raw: `${raw.slice(0, -1)},"i":${i}}`,
      first_seen_at: '2026-11-20T19:00:00Z',
      last_seen_at: '2026-11-20T19:00:00Z',
    }));
    await large.append({ posts });
    await large.flush({ now: true });
    expect(statSync(`${large.path}.wal`).size).toBeGreaterThan(4 * 1024 * 1024);
    await large.close();
    expect(existsSync(`${large.path}.wal`) ? statSync(`${large.path}.wal`).size : 0).toBe(0);
    expect(await readAll(large.path, 'select count(*), count(distinct post_id) from posts')).toEqual([
      [8_000, 8_000],
    ]);
  });
});
