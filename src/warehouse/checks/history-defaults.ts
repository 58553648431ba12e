import type { HistorySettings } from '../types.js';

/**
 * Defaults of the config file's `checks.history`. Engagement and EMV of a campaign sum
 * many posts, so 1% absorbs the unlikes and removed spam of a day; a single post's few
 * interactions move more, hence 10%. The anomaly band (campaign_engagement_anomaly.sql):
 * 5 scaled MADs; never narrower than 50% of the previous total, and only for campaigns of
 * 20 posts or more: with the simulator's heavy-tailed posts (one viral post can be worth a
 * thousand ordinary ones), smaller floors or campaigns gave false alarms on ordinary days of
 * 60 seeds, these none in 19,000 comparisons; a tenfold jump (+900%) stays far outside.
 */
export const HISTORY_DEFAULTS: HistorySettings = {
  engagementTolerance: 0.01,
  emvTolerance: 0.01,
  postEngagementTolerance: 0.1,
  anomalyWidth: 5,
  anomalyMinChange: 0.5,
  anomalyMinPosts: 20,
};
