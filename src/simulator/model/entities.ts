/** The simulator's slowly-changing entities, as the catalog (catalog.ts) derives them from the seed. */
import type { Network } from './networks.js';

export interface Workspace {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly created_at: string;
}

export interface Tag {
  readonly id: string;
  readonly name: string;
  readonly workspace_id: string;
}

export interface NetworkProfile {
  readonly network: Network;
  readonly id: string;
  readonly username: string;
  readonly followers: number;
  readonly engagement_per_post: number;
  readonly true_reach: number;
}

export interface Influencer {
  readonly id: string;
  readonly name: string;
  readonly tags: readonly Tag[];
  readonly influence: number;
  readonly brand_score: number;
  readonly profiles: readonly NetworkProfile[];
}

export interface Campaign {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly workspace_id: string;
  readonly status: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly postCount: number;
  /** Indexes into the influencer pool. */
  readonly influencers: readonly number[];
  /** Per campaign influencer: budget (null: none assigned) and sales by currency (absent: no attribution). */
  readonly budgets: readonly (number | null)[];
  readonly sales: readonly (Readonly<Record<string, number>> | undefined)[];
}
