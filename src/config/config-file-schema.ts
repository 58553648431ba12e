/** The optional JSON config file (--config / CW_CONFIG). Unknown keys are errors: a typo must not pass silently. */
import { z } from 'zod';
import { notifySectionSchema } from './notify-config.js';
import { remoteSectionSchema } from './remote-config.js';
import { cronProblem, timezoneProblem } from './schedule-check.js';

/** A string that `problem` finds nothing wrong with; otherwise its message is the issue. */
function checkedBy(problem: (value: string) => string | undefined) {
  return z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

/** The spec's networks. Others are accepted (a real server may add some) but must be plain API names. */
export const SPEC_NETWORKS = ['facebook', 'instagram', 'instagram_stories', 'tiktok'] as const;

const segmentSchema = z
  .strictObject({
    name: z
      .string()
      // Not starting with `_`: the lake names a segment's files after it, and `_` marks its
      // schema anchors (and files that Spark and Hive skip).
      .regex(
        /^[a-z0-9][a-z0-9_-]{0,63}$/,
        'segment names are 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit',
      )
      .refine((name) => name !== 'all', "'all' is the unfiltered view and cannot name a segment"),
    tags: z
      .array(z.string().regex(/^[^,\s]+$/, 'a tag id has no commas or spaces'))
      .min(1)
      .optional(),
    sources: z
      .array(z.string().regex(/^[a-z0-9_]+$/, 'a network is an API name such as instagram or tiktok'))
      .min(1)
      .optional(),
  })
  .refine((s) => s.tags || s.sources, 'a segment needs tags and/or sources');

const checkMode = z.enum(['warn', 'strict']);
/** A tolerance: a share of the previous figure, 0 (none) to 1 (any fall passes). */
const share = z.number().min(0).max(1);

export const configFileSchema = z.strictObject({
  baseUrl: z.string().optional(),
  dataDir: z.string().min(1).optional(),
  rps: z.number().positive().max(10_000).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
  responseDeadlineMs: z.number().int().min(1_000).max(3_600_000).optional(),
  segments: z
    .array(segmentSchema)
    .refine((list) => new Set(list.map((s) => s.name)).size === list.length, 'segment names must be unique')
    .optional(),
  schedule: z
    .strictObject({
      cron: checkedBy(cronProblem).optional(),
      timezone: checkedBy(timezoneProblem).optional(),
    })
    .optional(),
  /**
   * 'strict': a failing rule check fails the sync before its publish (as `sync --strict`).
   * Or an object: `mode` that, `history` the history checks' tolerances (HISTORY_DEFAULTS).
   */
  checks: z
    .union([
      checkMode,
      z.strictObject({
        mode: checkMode.optional(),
        history: z
          .strictObject({
            engagementTolerance: share.optional(),
            emvTolerance: share.optional(),
            postEngagementTolerance: share.optional(),
            anomalyWidth: z.number().positive().max(1_000).optional(),
            anomalyMinChange: z.number().min(0).max(100).optional(),
            anomalyMinPosts: z.number().int().min(0).optional(),
          })
          .optional(),
      }),
    ])
    .optional(),
  /** Webhooks, heartbeat and staleness of the notifications (src/config/notify-config.ts). */
  notify: notifySectionSchema.optional(),
  /** The remote lake on object storage: `s3://bucket/prefix`, or { url, endpoint, region, retentionDays } (docs/remote.md). */
  remote: remoteSectionSchema.optional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;
export type SegmentConfig = NonNullable<ConfigFile['segments']>[number];
