/**
 * The simulator's slowly-changing entities, derived from the seed: workspaces, influencer
 * tags, campaigns, and the pool of influencers campaigns draw from. Posts and daily figures
 * are derived lazily elsewhere (post-generator.ts, figures.ts).
 */
import { createRng, stableHex } from '../prng.js';
import type { Campaign, Influencer, NetworkProfile, Tag, Workspace } from './entities.js';
import { CampaignHistory, NO_HISTORY, type SimHistory } from './history.js';
import { NETWORKS } from './networks.js';
import { dayNumber, mix32, postPlacement } from './post-generator.js';
import type { SimSize } from './sim-size.js';

export type { Campaign, Influencer, NetworkProfile, Tag, Workspace } from './entities.js';

const FIRST_NAMES = [
  'Ava',
  'Noah',
  'Mia',
  'Liam',
  'Zoe',
  'Omar',
  'Lena',
  'Kai',
  'Sofia',
  'Yuki',
  'Ines',
  'Theo',
];
const LAST_NAMES = ['Martin', 'Silva', 'Kowalski', 'Nguyen', 'Okafor', 'Rossi', 'Dubois', 'Tanaka', 'Moreau'];
const TAG_NAMES = ['beauty', 'fitness', 'travel', 'food', 'gaming', 'fashion', 'tech', 'parenting', 'music'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY'];
const STATUSES = ['active', 'active', 'active', 'completed', 'draft'];

export class Catalog {
  readonly workspaces: readonly Workspace[];
  readonly tags: readonly Tag[];
  readonly campaigns: readonly Campaign[];
  readonly influencerPool: readonly Influencer[];
  /** Per campaign index, how its figures move over days; undefined: they only grow (no history). */
  readonly histories: readonly CampaignHistory[] | undefined;
  private readonly campaignById: Map<string, Campaign>;

  constructor(
    readonly seed: number,
    size: SimSize,
    history: SimHistory = NO_HISTORY,
  ) {
    this.workspaces = Array.from({ length: size.workspaces }, (_, i) => workspace(seed, i));
    this.tags = this.workspaces.flatMap((ws, w) =>
      Array.from({ length: size.tagsPerWorkspace }, (_, t) => ({
        id: String(100 + w * size.tagsPerWorkspace + t),
        name: `${TAG_NAMES[(w + t) % TAG_NAMES.length]}-${w + 1}`,
        workspace_id: ws.id,
      })),
    );
    // Consecutive campaigns share half their influencers, as real rosters do.
    const poolSize = Math.max(
      1,
      Math.ceil((size.campaigns * size.influencersPerCampaign) / 2) + size.influencersPerCampaign,
    );
    this.influencerPool = Array.from({ length: poolSize }, (_, p) => influencer(seed, p, this.tags));
    this.campaigns = Array.from({ length: size.campaigns }, (_, c) =>
      campaign(seed, c, size, this.workspaces, poolSize),
    );
    this.campaignById = new Map(this.campaigns.map((c) => [c.id, c]));
    const unit = (c: number, i: number, salt: number) => mix32(seed, c, i, salt) / 4294967296;
    this.histories =
      history.live || history.changes.length
        ? this.campaigns.map(
            (c) =>
              new CampaignHistory(
                history,
                c,
                unit,
                dayNumber,
                c.postCount ? postPlacement(this, c, 0).network : NETWORKS[0],
              ),
          )
        : undefined;
  }

  campaign(id: string): Campaign | undefined {
    return this.campaignById.get(id);
  }
}

function workspace(seed: number, i: number): Workspace {
  return {
    id: stableHex(24, seed, 'workspace', i),
    name: `Workspace ${i + 1}`,
    description: `Influencer programme ${i + 1}`,
    created_at: new Date(Date.UTC(2023, i % 12, 1 + (i % 27))).toISOString(),
  };
}

function influencer(seed: number, p: number, tags: readonly Tag[]): Influencer {
  const rng = createRng(seed, 'influencer', p);
  const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
  const tagCount = tags.length === 0 ? 0 : rng.int(0, Math.min(3, tags.length));
  const chosen = new Set<Tag>();
  while (chosen.size < tagCount) chosen.add(rng.pick(tags));
  const networkCount = rng.int(1, NETWORKS.length);
  const start = rng.int(0, NETWORKS.length - 1);
  const profiles: NetworkProfile[] = [];
  for (let k = 0; k < networkCount; k++) {
    const network = NETWORKS[(start + k) % NETWORKS.length]!;
    // Followers follow a heavy tail: most accounts are small, a few are huge.
    const followers = Math.round(2_000 / (rng.next() * 0.98 + 0.02) ** 1.2);
    profiles.push({
      network,
      id: `${network.slice(0, 2)}${stableHex(10, seed, 'profile', p, network)}`,
      username: `${name.toLowerCase().replace(' ', '.')}.${p}`,
      followers,
      engagement_per_post: Math.round(followers * (0.01 + rng.next() * 0.05) * 100) / 100,
      true_reach: Math.round(followers * (0.2 + rng.next() * 0.3)),
    });
  }
  return {
    id: String(700_000 + p),
    name,
    tags: [...chosen].sort((a, b) => Number(a.id) - Number(b.id)),
    influence: Math.round(rng.next() * 1000) / 10,
    brand_score: Math.round(rng.next() * 100) / 100,
    profiles,
  };
}

function campaign(
  seed: number,
  c: number,
  size: SimSize,
  workspaces: readonly Workspace[],
  poolSize: number,
): Campaign {
  const rng = createRng(seed, 'campaign', c);
  // Every seventh campaign has no posts yet; the others vary from 0.3x to 1.7x the mean.
  const postCount =
    c % 7 === 3 ? 0 : Math.max(1, Math.round(size.postsPerCampaign * (0.3 + 1.4 * rng.next())));
  const influencerCount = Math.min(
    poolSize,
    Math.max(1, Math.round(size.influencersPerCampaign * (0.5 + rng.next()))),
  );
  const first = (c * Math.ceil(size.influencersPerCampaign / 2)) % poolSize;
  const influencers = Array.from({ length: influencerCount }, (_, j) => (first + j) % poolSize);
  const start = Date.UTC(2026, rng.int(0, 9), rng.int(1, 28));
  return {
    index: c,
    id: String(5000 + c),
    name: `Campaign ${c + 1}`,
    workspace_id: workspaces.length ? workspaces[c % workspaces.length]!.id : '',
    status: rng.pick(STATUSES),
    start_date: new Date(start).toISOString().slice(0, 10),
    end_date: new Date(start + rng.int(30, 120) * 86_400_000).toISOString().slice(0, 10),
    postCount,
    influencers,
    budgets: influencers.map(() => (rng.next() < 0.1 ? null : rng.int(5, 500) * 100)),
    sales: influencers.map(() => {
      if (rng.next() < 0.4) return undefined; // no sales attribution for this influencer
      const sales: Record<string, number> = {};
      const n = rng.int(1, 2);
      for (let k = 0; k < n; k++) sales[rng.pick(CURRENCIES)] = Math.round(rng.next() * 500_000) / 100;
      return sales;
    }),
  };
}
