/**
 * Figures the API sends that a column cannot hold as sent (issue 38 items 5, 6, 7, 9), through
 * the built CLI: the simulator serves a sync behind a stub that rewrites the posts of one
 * campaign with bad values, written into the reply's text as the API would write them. Each is
 * then read back from the published warehouse through DuckDB: stored exactly, or NULL with one
 * warning line naming the field, never altered. A reply nested 10,000 deep fails the sync with
 * one line naming the endpoint and the cause, publishes nothing, and the next run succeeds.
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/util/json-depth.js';
import { readOnlyCatalog } from '../helpers/read-only-catalog.js';
import { lines, loopbackSync, run } from '../helpers/run-cli.js';
import { CAMPAIGN_POSTS, simBehindStub } from '../helpers/sim-behind-stub.js';
import type { StubScript } from '../helpers/stub-api-server.js';
import { tempDataDir } from '../helpers/sync-harness.js';

const KEY = { CW_API_KEY: 'sim-key' };

/** What each rewritten post gets: field values as JSON text, exactly as they go on the wire. */
const BAD_POSTS: readonly Record<string, string>[] = [
  { engagement: '47177.5', reach: '374144.25' },
  { engagement: '9007199254740993', reach: '"9007199254740993"', emv: '9007199254740993' },
  { engagement: '"0x1F"', reach: '"1e"', emv: '"Infinity"' },
  {
    engagement: '" "',
    reach: '"1_000"',
    emv: '"0b1"',
    stats: '{"likes":"0x10","views":" 12 ","shares":12345678901234567}',
  },
  { engagement: '99999999999999999999', reach: '" 42 "', emv: '"n/a"' },
];

const api = simBehindStub(2);

function syncArgs(dataDir: string): string[] {
  return loopbackSync(api.stub.url, dataDir, '--snapshot-date', '2026-11-20', '--concurrency', '1');
}

async function readBack(dataDir: string, sql: string): Promise<unknown[][]> {
  const catalog = await readOnlyCatalog(dataDir);
  try {
    return (await catalog.connection.runAndReadAll(sql)).getRows();
  } finally {
    catalog.close();
  }
}

describe('sync: bad figures are stored as sent or refused with a warning, never altered', () => {
  it('fractions, integers past 2^53 and BIGINT, non-decimal numeric strings', async () => {
    const dataDir = tempDataDir();
    const ids: string[] = [];
    // The first posts' fields get the wire text of BAD_POSTS.
    api.stub.script(
      withPosts(ids, (post, i) => {
        const bad = BAD_POSTS[i];
        if (!bad) return JSON.stringify(post);
        const fields = Object.entries(post).filter(([name]) => !(name in bad));
        const text = [
          ...fields.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`),
          ...Object.entries(bad).map(([name, value]) => `${JSON.stringify(name)}:${value}`),
        ];
        return `{${text.join(',')}}`;
      }),
    );
    const result = await run(syncArgs(dataDir), KEY);
    expect(result.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('{'))).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    const [a, b, c, d, e] = ids;

    const metrics = new Map(
      (
        await readBack(
          dataDir,
          `select post_id, engagement, reach, emv from post_metrics where post_id in ('${ids.slice(0, 5).join("','")}')`,
        )
      ).map((row) => [row[0] as string, row.slice(1)]),
    );
    expect(metrics.get(a!)).toEqual([null, null, expect.any(Number)]);
    expect(metrics.get(b!)).toEqual([9007199254740993n, 9007199254740993n, null]);
    expect(metrics.get(c!)).toEqual([null, null, null]);
    expect(metrics.get(d!)).toEqual([null, null, null]);
    expect(metrics.get(e!)).toEqual([null, 42n, null]);

    const stats = await readBack(
      dataDir,
      `select stat, value from post_stats where post_id = '${d}' order by stat`,
    );
    expect(stats).toEqual([
      ['likes', null],
      ['shares', null],
      ['views', 12],
    ]);

    // The raw JSON keeps what was sent, digit for digit.
    const [[rawB], [rawE]] = [
      ...(await readBack(dataDir, `select raw from posts where post_id = '${b}'`)),
      ...(await readBack(dataDir, `select raw from posts where post_id = '${e}'`)),
    ] as [[string], [string]];
    expect(rawB).toContain('"engagement":9007199254740993');
    expect(rawB).toContain('"emv":9007199254740993');
    expect(rawE).toContain('"engagement":99999999999999999999');
    const [[exactInJson]] = (await readBack(
      dataDir,
      `select json_extract(raw, '$.engagement')::hugeint from posts where post_id = '${b}'`,
    )) as [[bigint]];
    expect(exactInJson).toBe(9007199254740993n);

    // One warning line per field and reason, in the summary (and the log), naming the first value.
    const warnings = lines(result.stdout).filter((line) => line.startsWith('warning: '));
    expect(warnings.sort()).toEqual(
      [
        'post_metrics.emv: 1 value stored as NULL: an integer too large for a DOUBLE to hold exactly (first: 9007199254740993)',
        'post_metrics.emv: 3 values stored as NULL: not a decimal number (first: "Infinity")',
        'post_metrics.engagement: 1 value stored as NULL: beyond the BIGINT range (first: 99999999999999999999)',
        'post_metrics.engagement: 1 value stored as NULL: not a whole number (first: 47177.5)',
        'post_metrics.engagement: 2 values stored as NULL: not a decimal number (first: "0x1F")',
        'post_metrics.reach: 1 value stored as NULL: not a whole number (first: 374144.25)',
        'post_metrics.reach: 2 values stored as NULL: not a decimal number (first: "1e")',
        'post_stats.value (stat likes): 1 value stored as NULL: not a decimal number (first: "0x10")',
        'post_stats.value (stat shares): 1 value stored as NULL: an integer too large for a DOUBLE to hold exactly (first: 12345678901234567)',
      ]
        .map((line) => `warning: ${line}`)
        .sort(),
    );
    const logged = lines(result.stderr).filter((line) => line.includes('stored as NULL'));
    expect(logged).toHaveLength(warnings.length);
  }, 120_000);

  it(`a reply nested 10,000 deep: one line naming the endpoint and the cause, nothing published; the next run succeeds`, async () => {
    const dataDir = tempDataDir();
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    api.stub.script(
      withPosts([], (post, i) =>
        i === 0
          ? JSON.stringify({ ...post, stats: '__DEEP__' }).replace('"__DEEP__"', deep)
          : JSON.stringify(post),
      ),
    );
    const failed = await run(syncArgs(dataDir), KEY);
    expect(failed.code).toBe(1);
    const messages = lines(failed.stderr).filter((line) => !line.startsWith('{'));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      new RegExp(
        `^campaign-warehouse: GET /v3/influencers/campaigns/[^/]+/posts: reply nested deeper than ${MAX_JSON_DEPTH} levels \\(X-Request-Id req-\\d+\\)$`,
      ),
    );
    expect(failed.stderr).not.toContain('Maximum call stack');
    expect(failed.stderr).not.toMatch(/^\s+at /m);
    // Only the failed run is published, no figure of it.
    expect(await readBack(dataDir, 'select status from sync_runs')).toEqual([['failed']]);
    expect(await readBack(dataDir, 'select count(*)::int from post_metrics')).toEqual([[0]]);

    api.stub.script(api.forward);
    const rerun = await run(syncArgs(dataDir), KEY);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await readBack(dataDir, 'select count(*)::int from campaign_metrics')).toEqual([[2]]);
  }, 120_000);
});

/**
 * A script serving the first campaign's posts (as asked) with each post's text made by
 * `post(record, index)`; `ids` receives that campaign's post ids as served.
 */
function withPosts(
  ids: string[],
  post: (record: Record<string, unknown>, index: number) => string,
): StubScript {
  let first: string | undefined;
  return async (req) => {
    const campaign = CAMPAIGN_POSTS.exec(req.path)?.[1];
    if (campaign === undefined) return api.forward(req);
    first ??= campaign;
    const reply = await api.forward(req);
    if (campaign !== first || reply.status !== 200) return reply;
    const body = JSON.parse(reply.body as string) as { posts: Record<string, unknown>[] };
    ids.push(...body.posts.map((p) => String(p.id)));
    const posts = `[${body.posts.map((p, i) => post(p, i)).join(',')}]`;
    return { ...reply, body: JSON.stringify({ ...body, posts: '__POSTS__' }).replace('"__POSTS__"', posts) };
  };
}
