/** How much data the simulator generates. Means: each campaign's counts are skewed around them. */
export interface SimSize {
  readonly workspaces: number;
  readonly tagsPerWorkspace: number;
  readonly campaigns: number;
  readonly postsPerCampaign: number;
  readonly influencersPerCampaign: number;
}

/** Small enough for fast tests, large enough that every list spans several pages of 10. */
export const DEFAULT_SIZE: SimSize = {
  workspaces: 2,
  tagsPerWorkspace: 4,
  campaigns: 8,
  postsPerCampaign: 40,
  influencersPerCampaign: 12,
};
