import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSyncConfig } from '../../src/config/sync-config.js';
import { parseInconsistencies } from '../../src/simulator/inconsistency.js';
import { packageRoot } from '../../src/util/package-root.js';
import { listDataChecks } from '../../src/warehouse/checks/run-data-checks.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The SQL without its `--` comments (which name the rules on reach they respect). */
const code = (sql: string) => sql.replace(/--.*$/gm, '');

describe('data check rules (sql/checks)', () => {
  const checks = listDataChecks();

  it('each names its rule and the spec section it comes from', () => {
    expect(checks.length).toBeGreaterThanOrEqual(15);
    for (const check of checks) {
      expect(check.sql, check.name).toMatch(new RegExp(`^-- ${check.name}: `));
      expect(check.sql, check.name).toMatch(/-- Rule: api-v3\.md, "/);
      expect(check.sql, check.name).toMatch(/-- Level: (campaign|network|influencer|post) /);
    }
  });

  it('no check, nor what they share, reads a reach figure', () => {
    const prepare = readFileSync(join(packageRoot(), 'sql', 'checks', '_prepare.sql'), 'utf8');
    for (const { name, sql } of [...checks, { name: '_prepare', sql: prepare }])
      expect(code(sql), name).not.toMatch(/reach/i);
  });

  it('cover the four levels', () => {
    const levels = new Set(checks.map((c) => /-- Level: (\w+)/.exec(c.sql)![1]));
    expect(levels).toEqual(new Set(['campaign', 'network', 'influencer', 'post']));
  });
});

describe('simulator inconsistencies', () => {
  it('parses campaign:kind items', () => {
    expect(
      parseInconsistencies('5001:num_posts+3, 5002:influencer,5003:num_posts-1,5004:network,5005:reach'),
    ).toEqual([
      { campaignId: '5001', kind: 'num_posts', delta: 3 },
      { campaignId: '5002', kind: 'influencer' },
      { campaignId: '5003', kind: 'num_posts', delta: -1 },
      { campaignId: '5004', kind: 'network' },
      { campaignId: '5005', kind: 'reach' },
    ]);
  });
  it('names a malformed item', () => {
    expect(() => parseInconsistencies('5001:influencer,5002:posts')).toThrow('"5002:posts" is not');
  });
});

describe('checks setting', () => {
  const env = { CW_API_KEY: 'k', CW_BASE_URL: 'https://api.example.com' };
  const file = (content: unknown) => {
    const path = join(tempDir('cw-checks-'), 'cw.json');
    writeFileSync(path, JSON.stringify(content));
    return path;
  };
  it('warns by default; "checks": "strict" in the file or --strict makes a run strict', () => {
    expect(resolveSyncConfig({}, env).checks).toBe('warn');
    expect(resolveSyncConfig({ config: file({ checks: 'strict' }) }, env).checks).toBe('strict');
    expect(resolveSyncConfig({ config: file({ checks: 'warn' }), strict: true }, env).checks).toBe('strict');
  });
  it('refuses another value, naming the key', () => {
    expect(() => resolveSyncConfig({ config: file({ checks: 'fail' }) }, env)).toThrow(/: checks: /);
  });
});
