export const FACT_TABLES = [
    'campaign_metrics',
    'campaign_network_metrics',
    'campaign_network_stats',
    'post_metrics',
    'post_stats',
    'influencer_campaign_metrics',
    'influencer_sales',
    'influencer_stats',
    'influencer_profiles',
    'influencer_network_profiles',
    'influencer_tag_assignments',
];
export const ENTITY_TABLES = ['workspaces', 'influencer_tags', 'campaigns', 'influencers', 'posts'];
