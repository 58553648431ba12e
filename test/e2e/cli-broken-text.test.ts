/**
 * Broken text from the API or a sender (issue 38, item 1), through the built CLI: lone UTF-16
 * surrogates (`\ud800`, `\udfff`, a high one at a string's end) in a campaign's name, in stats
 * keys and in nested fields of the records kept whole (`raw`), and a pushed document with a
 * lone surrogate and one whose bytes are not UTF-8. Each is stored as U+FFFD with one warning
 * line, and nothing stops reading or publishing afterwards.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { hookPath } from '../../src/sink/hook-path.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { type CorruptingProxy, startCorruptingProxy } from '../helpers/corrupting-proxy.js';
import { lines, loopbackSync, run } from '../helpers/run-cli.js';
import { spawnSinkCli } from '../helpers/sink-child.js';
import { insertHook, postDelivery, sampleDocument, signatureHeaders } from '../helpers/sink-fixtures.js';
import { SMALL, startSim, tempDataDir } from '../helpers/sync-harness.js';

const FFFD = '\uFFFD';
const WARNING = 'broken text repaired';

/** Escapes of lone surrogates spliced into the API's JSON replies (valid JSON; JSON.parse takes them). */
function corrupt(path: string, body: string): string {
  // The campaign list and a campaign's detail (whose name the stored record takes).
  if (/^\/v3\/influencers\/campaigns(\/[^/]+)?$/.test(path))
    return body.replace('"name":"Campaign 1"', '"name":"Camp\\ud800aign 1"');
  if (path.endsWith('/posts')) return body.replaceAll('"stats":{', '"stats":{"lik\\udfffes":3,');
  if (path.endsWith('/influencers'))
    return body.replaceAll('"username":"', '"nick\\ud800":"end\\ud83d","username":"');
  return body;
}

/** Every view and table of the catalog answers `select *`. */
async function everyViewReads(dataDir: string): Promise<number> {
  const views = await queryReadOnly(
    dataDir,
    "select view_name from duckdb_views() where schema_name = 'main' and not internal order by 1",
  );
  for (const [view] of views.rows) await queryReadOnly(dataDir, `select * from "${String(view)}"`);
  return views.rows.length;
}

describe('broken text (built CLI)', () => {
  let sim: RunningSimulator;
  let proxy: CorruptingProxy;
  const dataDir = join(tempDataDir(), 'data');
  const env = { CW_API_KEY: 'sim-key' };

  beforeAll(async () => {
    ensureBuiltCli();
    sim = await startSim({
      size: { ...SMALL, campaigns: 2, postsPerCampaign: 4, influencersPerCampaign: 3 },
    });
    proxy = await startCorruptingProxy(sim.url, corrupt);
  }, 900_000);
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  it('a sync stores lone surrogates as U+FFFD with one warning line; reads and the next sync work', async () => {
    const sync = (date: string) =>
      run(loopbackSync(proxy.url, dataDir, '--snapshot-date', date), env, {
        timeoutMs: 120_000,
      });
    const first = await sync('2026-11-19');
    expect(first.code, first.stderr).toBe(0);
    const warnings = lines(first.stderr).filter((line) => line.includes(WARNING));
    expect(warnings).toHaveLength(1);
    for (const field of [
      'campaigns.name',
      'campaigns.raw',
      'posts.raw',
      'post_stats.stat',
      'influencers.raw',
    ])
      expect(warnings[0]).toContain(field);
    expect(first.stderr).not.toContain('could not run');

    const raw = await run(['query', 'select raw from campaigns', '--data-dir', dataDir, '--format', 'json']);
    expect(raw.code, raw.stderr).toBe(0);
    const names = await queryReadOnly(
      dataDir,
      'select name, raw::varchar from campaigns order by campaign_id',
    );
    expect(names.rows[0]).toEqual([`Camp${FFFD}aign 1`, expect.stringContaining(`Camp${FFFD}aign 1`)]);
    const stats = await queryReadOnly(dataDir, 'select distinct stat from post_stats order by 1');
    expect(stats.rows.map((row) => row[0])).toContain(`lik${FFFD}es`);
    // The influencer's profile per network (where `username` is) is kept in its raw JSON.
    const influencer = await queryReadOnly(dataDir, 'select raw::varchar from influencers limit 1');
    expect(String(influencer.rows[0]![0])).toContain(`"nick${FFFD}":"end${FFFD}"`);
    expect(await everyViewReads(dataDir)).toBeGreaterThan(10);

    const second = await sync('2026-11-20');
    expect(second.code, second.stderr).toBe(0);
    expect(lines(second.stderr).filter((line) => line.includes(WARNING))).toHaveLength(1);
    const campaigns = await queryReadOnly(dataDir, 'select count(*) from campaigns');
    expect(Number(campaigns.rows[0]![0])).toBe(2);
  }, 300_000);

  it('the sink stores a document with a lone surrogate, and one whose bytes are not UTF-8, with a warning', async () => {
    const hook = insertHook(dataDir);
    const sink = await spawnSinkCli(dataDir, ['--publish-interval', '3600']);
    try {
      // A lone surrogate in a value, a key and at a string's end, as a sender's JSON escapes.
      const surrogate = JSON.stringify({
        request: { hook_id: hook.hookId, search_id: hook.searchId },
        documents: [
          sampleDocument('lone', { content: { title: 'Bad \ud800 title' }, 'k\udfff': 'end\ud83d' }),
        ],
      });
      expect(surrogate).toContain('\\ud800');
      expect(await postDelivery(sink.url, hook, surrogate)).toBe(200);
      // Bytes that are not UTF-8 (a Latin-1 é, a stray continuation byte) inside a string.
      const text = JSON.stringify({
        request: { hook_id: hook.hookId, search_id: hook.searchId },
        documents: [sampleDocument('latin1', { content: { title: 'caf@ au lait' } })],
      });
      const bytes = Buffer.from(text, 'utf8');
      bytes[bytes.indexOf('@')] = 0xe9;
      const response = await fetch(`${sink.url}${hookPath(hook.pathToken)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signatureHeaders(hook.secret, bytes) },
        body: bytes,
      });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    } finally {
      sink.process.kill('SIGTERM');
    }
    expect(await sink.exited, sink.stderr()).toBe(0);
    const warnings = lines(sink.stderr()).filter((line) => line.includes(WARNING));
    expect(warnings.length, sink.stderr()).toBeGreaterThanOrEqual(1);
    expect(warnings.join('\n')).toContain('stream_documents.document');
    const documents = await queryReadOnly(
      dataDir,
      'select document_id, title, document::varchar from stream_documents order by document_id',
    );
    const byId = Object.fromEntries(documents.rows.map(([id, title, json]) => [String(id), { title, json }]));
    expect(byId.lone?.title).toBe(`Bad ${FFFD} title`);
    expect(JSON.parse(String(byId.lone?.json))).toMatchObject({ [`k${FFFD}`]: `end${FFFD}` });
    expect(byId.latin1?.title).toBe(`caf${FFFD} au lait`);
    expect(await everyViewReads(dataDir)).toBeGreaterThan(10);
  }, 120_000);
});
