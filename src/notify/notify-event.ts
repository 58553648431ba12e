/**
 * What a notification says, whatever the channel: the `json` format sends this object as is
 * (documented in docs/deploy.md), the `slack` format renders it (format-slack.ts).
 */

/** Incidents: each opens once, is reminded of daily while open, and closes once. */
export const INCIDENT_KINDS = [
  'sync_failed',
  'data_stale',
  'data_checks_failed',
  'history_checks_failed',
  'sink_publish_failing',
  'sink_inbox_refusing',
  'delivery_quarantined',
  'disk_low',
  'remote_behind',
] as const;

export type IncidentKind = (typeof INCIDENT_KINDS)[number];

/** Event names a message carries: an incident's kind, `sync_recovered` (sync_failed's end), `test`. */
export type EventName = IncidentKind | 'sync_recovered' | 'test';

export type Severity = 'critical' | 'warning' | 'info';

/** How bad each incident is: what stops data arriving is critical; the rest needs a look. */
export const SEVERITY: Readonly<Record<IncidentKind, Severity>> = {
  sync_failed: 'critical',
  data_stale: 'critical',
  data_checks_failed: 'warning',
  history_checks_failed: 'warning',
  sink_publish_failing: 'critical',
  sink_inbox_refusing: 'critical',
  delivery_quarantined: 'warning',
  disk_low: 'warning',
  // The local warehouse is whole; readers of the remote lake see older snapshots until it catches up.
  remote_behind: 'warning',
};

/** The `json` format's body. */
export interface NotifyMessage {
  readonly event: EventName;
  readonly severity: Severity;
  /** One line. */
  readonly summary: string;
  /** Flat facts of the event (attempt, next_retry_at, backlog, free_bytes, checks...). */
  readonly details: Readonly<Record<string, unknown>>;
  /** ISO-8601 UTC: when the incident started (a reminder repeats it), or when it ended. */
  readonly occurred_at: string;
  /** true for the message that ends an incident. */
  readonly resolved: boolean;
  /** Set on the daily reminder of an incident still open. */
  readonly reminder?: boolean;
}

/** A Slack incoming-webhook body (also accepted by Mattermost and Rocket.Chat): text plus blocks. */
export function formatSlack(message: NotifyMessage): object {
  const icon = message.resolved
    ? ':white_check_mark:'
    : message.severity === 'critical'
      ? ':rotating_light:'
      : message.severity === 'warning'
        ? ':warning:'
        : ':information_source:';
  const state = message.resolved ? 'resolved' : message.reminder ? 'still open' : message.severity;
  const text = `${icon} campaign-warehouse ${message.event} (${state}): ${message.summary}`;
  const facts = Object.entries(message.details)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `*${key}*: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      ...(facts.length
        ? [{ type: 'section', text: { type: 'mrkdwn', text: facts.join('\n').slice(0, 2900) } }]
        : []),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `occurred at ${message.occurred_at}` }] },
    ],
  };
}
