import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESPONSE_DEADLINE_MS } from '../../src/api/client-defaults.js';
import { DEFAULT_RPS, resolveSyncConfig } from '../../src/config/sync-config.js';
import { latestCompletedRefresh, resolveSnapshotDate } from '../../src/extract/snapshot-date.js';
import { HISTORY_DEFAULTS } from '../../src/warehouse/index.js';
import { tempDir } from '../helpers/temp-dir.js';

const env = { CW_API_KEY: 'k-123', CW_BASE_URL: 'https://api.example.com/' };
function configFile(content: unknown): string {
  const file = join(tempDir('cw-config-'), 'cw.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('sync configuration', () => {
  it("takes the history checks' tolerances from checks.history, over the defaults", () => {
    const file = configFile({ checks: { mode: 'strict', history: { postEngagementTolerance: 0.25 } } });
    const config = resolveSyncConfig({ config: file }, env);
    expect(config.checks).toBe('strict');
    expect(config.historyChecks).toEqual({ ...HISTORY_DEFAULTS, postEngagementTolerance: 0.25 });
    expect(resolveSyncConfig({ config: configFile({ checks: 'warn' }) }, env).historyChecks).toBeUndefined();
    expect(() =>
      resolveSyncConfig({ config: configFile({ checks: { history: { emvTolerance: 2 } } }) }, env),
    ).toThrow(/checks\.history\.emvTolerance: /);
    expect(() =>
      resolveSyncConfig({ config: configFile({ checks: { history: { anomalyWidht: 3 } } }) }, env),
    ).toThrow(/checks/);
  });

  it('takes the response deadline from the config file (default 2 min), refusing one under a second', () => {
    expect(resolveSyncConfig({}, env).responseDeadlineMs).toBe(DEFAULT_RESPONSE_DEADLINE_MS);
    const file = configFile({ responseDeadlineMs: 5_000 });
    expect(resolveSyncConfig({ config: file }, env).responseDeadlineMs).toBe(5_000);
    expect(() => resolveSyncConfig({ config: configFile({ responseDeadlineMs: 10 }) }, env)).toThrow(
      /responseDeadlineMs: /,
    );
  });

  it('takes flags over environment over file over defaults', () => {
    const file = configFile({
      rps: 2,
      concurrency: 3,
      dataDir: '/from-file',
      segments: [{ name: 'video', sources: ['tiktok'] }],
    });
    const config = resolveSyncConfig({ config: file, rps: 9 }, { ...env, CW_DATA_DIR: '/from-env' });
    expect(config).toMatchObject({
      baseUrl: 'https://api.example.com',
      apiKey: 'k-123',
      dataDir: '/from-env',
      rps: 9,
      concurrency: 3,
    });
    expect(config.segments).toEqual([{ name: 'video', sources: ['tiktok'] }]);
    expect(resolveSyncConfig({}, env).rps).toBe(DEFAULT_RPS);
    expect(resolveSyncConfig({}, env).dataDir).toBe('./data');
  });

  it.each([
    [{}, { CW_BASE_URL: 'https://x.example' }, /CW_API_KEY is not set/],
    [{}, { CW_API_KEY: 'k' }, /no API base URL/],
    [{ snapshotDate: '2026-02-30' }, env, /--snapshot-date: "2026-02-30" is not a date/],
    [{ baseUrl: 'ftp://x' }, env, /--base-url/],
  ])('names what is wrong: %j', (flags, environment, message) => {
    expect(() => resolveSyncConfig(flags, environment)).toThrow(message);
  });

  it.each([
    [{ segments: [{ name: 'all', tags: ['1'] }] }, /segments\[0\]\.name: 'all' is the unfiltered view/],
    [
      {
        segments: [
          { name: 'a', tags: ['1'] },
          { name: 'a', sources: ['tiktok'] },
        ],
      },
      /segments: segment names must be unique/,
    ],
    [{ segments: [{ name: 'a' }] }, /segments\[0\]: a segment needs tags and\/or sources/],
    // `_` starts the lake's schema anchors (and files Spark and Hive skip).
    [{ segments: [{ name: '_schema', tags: ['1'] }] }, /segments\[0\]\.name: segment names are/],
    [{ rps: -1 }, /rps: /],
    [{ rsp: 3 }, /unknown key "rsp" \(did you mean "rps"\?\)/],
    ['{ not json', /not valid JSON/],
  ])('rejects a bad config file field with a line naming it: %j', (content, message) => {
    const file = configFile(content);
    expect(() => resolveSyncConfig({ config: file }, env)).toThrow(
      new RegExp(`config file ${file.replace(/[.]/g, '\\.')}: .*`),
    );
    expect(() => resolveSyncConfig({ config: file }, env)).toThrow(message);
  });

  it('never puts the key in an error', () => {
    try {
      resolveSyncConfig({ baseUrl: 'nope' }, { CW_API_KEY: 'secret-key-xyz' });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret-key-xyz');
    }
    expect.assertions(1);
  });
});

describe('snapshot date and the refresh window (18:00-21:00 UTC)', () => {
  it('is the date of the latest completed refresh', () => {
    expect(latestCompletedRefresh(new Date('2026-11-22T21:00:00Z'))).toBe('2026-11-22');
    expect(latestCompletedRefresh(new Date('2026-11-22T17:59:59Z'))).toBe('2026-11-21');
    expect(latestCompletedRefresh(new Date('2026-11-22T00:30:00Z'))).toBe('2026-11-21');
  });

  it('refuses inside the window unless forced', () => {
    const inside = new Date('2026-11-22T19:00:00Z');
    expect(() => resolveSnapshotDate(inside, undefined, false)).toThrow(/refreshing.*--force/);
    expect(resolveSnapshotDate(inside, undefined, true)).toEqual({ date: '2026-11-21' });
  });

  it('refuses a date with no figures yet, and an earlier one unless forced, saying the figures are current', () => {
    const after = new Date('2026-11-22T22:00:00Z');
    const before = new Date('2026-11-22T10:00:00Z');
    expect(resolveSnapshotDate(after, '2026-11-22', false)).toEqual({ date: '2026-11-22' });
    expect(resolveSnapshotDate(before, '2026-11-21', false)).toEqual({ date: '2026-11-21' });
    // In the future: refused even when forced.
    expect(() => resolveSnapshotDate(after, '2026-12-25', true)).toThrow(
      /^--snapshot-date: 2026-12-25 is in the future \(today is 2026-11-22 UTC\)/,
    );
    // Today, before its refresh completed.
    expect(() => resolveSnapshotDate(before, '2026-11-22', true)).toThrow(
      /has not completed yet.*2026-11-21/,
    );
    // An earlier day: its figures are gone; refused, or stored with a line saying what they are.
    expect(() => resolveSnapshotDate(after, '2026-11-01', false)).toThrow(
      /2026-11-01 is not the latest completed refresh \(2026-11-22\).*--force/,
    );
    const forced = resolveSnapshotDate(after, '2026-11-01', true);
    expect(forced.date).toBe('2026-11-01');
    expect(forced.relabelled).toMatch(/current ones \(the 2026-11-22 refresh\), not 2026-11-01's$/);
    for (const bad of [() => resolveSnapshotDate(after, '2026-12-25', true)])
      expect(bad).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});
