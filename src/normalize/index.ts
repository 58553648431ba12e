/** Pure normalization: API records in, warehouse rows out (tables: sql/warehouse/migrations). */
export type { CampaignRowContext } from './campaign-row-context.js';
export { toId } from './coerce.js';
export { normalizeCampaignDetail } from './normalize-campaign-detail.js';
export { normalizeInfluencers } from './normalize-influencers.js';
export { normalizePosts } from './normalize-posts.js';
export { normalizeTags } from './normalize-tags.js';
export { normalizeWorkspaces } from './normalize-workspaces.js';
export type { Row, RowContext, TableName, TableRows, Value } from './rows.js';
