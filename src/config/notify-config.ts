/**
 * Where notifications go: the config file's `notify` section, or the environment
 * (CW_NOTIFY_WEBHOOK: one Slack-format webhook; CW_HEARTBEAT_URL). Webhook and heartbeat URLs
 * carry tokens: an error names the setting and at most the URL's host, never the URL.
 */
import { z } from 'zod';
import { validateHttpsUrl } from '../api/validate-base-url.js';
import { hostOf } from '../util/host-of.js';
import { UserError } from '../util/user-error.js';

/**
 * Hours without a successful snapshot of a completed refresh before `data_stale`: a missed
 * night (the scheduler retries until the next refresh window) plus half a day for someone to
 * notice the sync_failed messages first.
 */
export const DEFAULT_STALE_AFTER_HOURS = 36;

export const WEBHOOK_FORMATS = ['slack', 'json'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** The config file's `notify` section (checked with the rest of the file). */
export const notifySectionSchema = z.strictObject({
  webhooks: z
    .array(
      z.strictObject({
        url: z.string().superRefine((value, ctx) => {
          const problem = urlProblem(value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
        format: z.enum(WEBHOOK_FORMATS),
      }),
    )
    .optional(),
  heartbeat: z
    .string()
    .superRefine((value, ctx) => {
      const problem = urlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  staleAfterHours: z
    .number()
    .positive()
    .max(24 * 365)
    .optional(),
});

export type NotifySection = z.infer<typeof notifySectionSchema>;

export interface WebhookTarget {
  readonly url: string;
  readonly format: WebhookFormat;
}

export interface NotifyConfig {
  readonly webhooks: readonly WebhookTarget[];
  /** healthchecks.io-style ping URL: <url>/start, <url>, <url>/fail. */
  readonly heartbeat?: string;
  readonly staleAfterHours: number;
}

/**
 * The notify settings: the config file's section, plus CW_NOTIFY_WEBHOOK (a Slack-format
 * webhook added to the file's) and CW_HEARTBEAT_URL (wins over the file's heartbeat).
 */
export function resolveNotifyConfig(
  section: NotifySection | undefined,
  env: NodeJS.ProcessEnv = process.env,
): NotifyConfig {
  const webhooks: WebhookTarget[] = (section?.webhooks ?? []).map((w) => ({ url: w.url, format: w.format }));
  const envHook = env.CW_NOTIFY_WEBHOOK;
  if (envHook !== undefined && envHook !== '') {
    checkUrl('CW_NOTIFY_WEBHOOK', envHook);
    webhooks.push({ url: envHook, format: 'slack' });
  }
  const envBeat = env.CW_HEARTBEAT_URL;
  if (envBeat !== undefined && envBeat !== '') checkUrl('CW_HEARTBEAT_URL', envBeat);
  const heartbeat = envBeat || section?.heartbeat;
  return {
    webhooks,
    ...(heartbeat ? { heartbeat } : {}),
    staleAfterHours: section?.staleAfterHours ?? DEFAULT_STALE_AFTER_HOURS,
  };
}

/** True when at least one webhook or a heartbeat is configured. */
export function hasTargets(config: NotifyConfig): boolean {
  return config.webhooks.length > 0 || config.heartbeat !== undefined;
}

function checkUrl(source: string, value: string): void {
  const problem = urlProblem(value);
  if (problem) throw new UserError(`${source}: ${problem}`);
}

/**
 * Why a webhook or heartbeat URL is refused (the rule of every URL the tool sends to:
 * https://, http:// only for loopback), naming its host at most; undefined when it is fine.
 */
export function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  try {
    validateHttpsUrl(url.href, 'URL');
    return undefined;
  } catch {
    return `${url.protocol}//${hostOf(value)}/… must use https:// (plain http:// only for loopback hosts)`;
  }
}
