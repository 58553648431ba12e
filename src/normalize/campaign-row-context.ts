import type { RowContext } from './rows.js';

/** Where the rows of a campaign's responses belong. */
export type CampaignRowContext = RowContext & { readonly campaignId: string };
