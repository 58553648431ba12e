import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../src/config/config-file-schema.js';
import {
  DEFAULT_STALE_AFTER_HOURS,
  resolveNotifyConfig,
  urlProblem,
} from '../../src/config/notify-config.js';
import { formatSlack, type NotifyMessage } from '../../src/notify/notify-event.js';
import { summaryLine } from '../../src/notify/sync-notifier.js';
import { hostOf } from '../../src/util/host-of.js';
import { UserError } from '../../src/util/user-error.js';

const TOKEN = 'T000/B000/secretpart';

describe('notify config', () => {
  it('takes https:// anywhere and http:// on loopback only, naming at most the host of a refused URL', () => {
    expect(urlProblem(`https://hooks.slack.com/services/${TOKEN}`)).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:9000/hook')).toBeUndefined();
    expect(urlProblem('http://[::1]:9000/hook')).toBeUndefined();
    const refused = urlProblem(`http://hooks.example.com/services/${TOKEN}`);
    expect(refused).toBe(
      'http://hooks.example.com/… must use https:// (plain http:// only for loopback hosts)',
    );
    expect(urlProblem(`ftp://files.example.com/${TOKEN}`)).not.toContain(TOKEN);
    expect(urlProblem(`hooks.example.com/${TOKEN}`)).toBe('not a URL');
  });

  it('adds CW_NOTIFY_WEBHOOK as a slack webhook to the file’s, and CW_HEARTBEAT_URL wins over the file’s heartbeat', () => {
    const config = resolveNotifyConfig(
      {
        webhooks: [{ url: 'https://ops.example/hook', format: 'json' }],
        heartbeat: 'https://hc.example/file',
      },
      { CW_NOTIFY_WEBHOOK: 'https://hooks.slack.com/x', CW_HEARTBEAT_URL: 'https://hc.example/env' },
    );
    expect(config).toEqual({
      webhooks: [
        { url: 'https://ops.example/hook', format: 'json' },
        { url: 'https://hooks.slack.com/x', format: 'slack' },
      ],
      heartbeat: 'https://hc.example/env',
      staleAfterHours: DEFAULT_STALE_AFTER_HOURS,
    });
    expect(resolveNotifyConfig(undefined, {})).toEqual({
      webhooks: [],
      staleAfterHours: DEFAULT_STALE_AFTER_HOURS,
    });
  });

  it('refuses a bad environment URL with a UserError naming the variable, never the token', () => {
    const attempt = () => resolveNotifyConfig(undefined, { CW_HEARTBEAT_URL: `http://hc.example/${TOKEN}` });
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(/^CW_HEARTBEAT_URL: http:\/\/hc\.example\/… must use https/);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain(TOKEN);
    }
  });

  it('is checked with the config file: unknown keys, a missing format and a bad URL are refused', () => {
    const parse = (notify: unknown) => configFileSchema.safeParse({ notify });
    expect(
      parse({ webhooks: [{ url: 'https://a.example/h', format: 'slack' }], staleAfterHours: 12 }).success,
    ).toBe(true);
    expect(parse({ webhook: [] }).success).toBe(false);
    expect(parse({ webhooks: [{ url: 'https://a.example/h' }] }).success).toBe(false);
    expect(parse({ webhooks: [{ url: 'https://a.example/h', format: 'teams' }] }).success).toBe(false);
    const bad = parse({ heartbeat: `http://hc.example/${TOKEN}` });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).not.toContain(TOKEN);
  });

  it('shows a URL by its host only', () => {
    expect(hostOf(`https://hooks.slack.com:8443/services/${TOKEN}?x=1`)).toBe('hooks.slack.com:8443');
    expect(hostOf('nonsense')).toBe('(not a URL)');
  });
});

describe('message formats', () => {
  const message: NotifyMessage = {
    event: 'data_checks_failed',
    severity: 'warning',
    summary: '1 data checks failed on snapshot 2026-11-20',
    details: { snapshot_date: '2026-11-20', checks: [{ check: 'campaign_posts_counted', campaigns: 2 }] },
    occurred_at: '2026-11-20T22:00:00.000Z',
    resolved: false,
  };

  it('slack: a text line plus blocks with the details and the time', () => {
    const slack = formatSlack(message) as {
      text: string;
      blocks: { type: string; text?: { text: string } }[];
    };
    expect(slack.text).toBe(
      ':warning: campaign-warehouse data_checks_failed (warning): 1 data checks failed on snapshot 2026-11-20',
    );
    expect(slack.blocks.map((b) => b.type)).toEqual(['section', 'section', 'context']);
    expect(slack.blocks[1]!.text!.text).toContain('*snapshot_date*: 2026-11-20');
    expect(slack.blocks[1]!.text!.text).toContain('"campaign_posts_counted"');
    const resolved = formatSlack({ ...message, resolved: true }) as { text: string };
    expect(resolved.text).toMatch(/^:white_check_mark: .*\(resolved\)/);
  });

  it('the heartbeat body: the run in one line', () => {
    expect(
      summaryLine({
        snapshotDate: '2026-11-20',
        durationMs: 12_345,
        rowsWritten: 600,
        requests: 9,
        checks: {
          mode: 'warn',
          ran: 16,
          failed: [],
          history: { results: [], files: 0, durationMs: 0 },
          drift: [],
          durationMs: 5,
        },
      }),
    ).toBe('sync 2026-11-20 succeeded in 12.3 s: 600 rows, 9 requests; data checks: 16 ran, none failed');
  });
});
