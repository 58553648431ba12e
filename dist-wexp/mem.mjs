const { generatePages } = await import('./bench/load-pages.js');
const { localNormalizePosts } = await import('./bench/load-local-normalize.js');
const { openStaging } = await import('./src/warehouse/open-staging.js');
const s = await openStaging('/tmp/wexp/mem' + Date.now(), 'x');
let peak = 0, rows = 0; const t = performance.now();
for (let c = 0; c < 150; c++) {
  const [campaign] = generatePages(1, 2000, 1).map((p) => ({ ...p, campaignId: String(5000 + c) }));
  for (const page of campaign.posts) {
    const r = localNormalizePosts(page, { snapshotDate: '2026-11-20', segment: 'all', seenAt: '2026-11-20T21:30:00Z', campaignId: campaign.campaignId });
    for (const v of Object.values(r)) rows += v.length;
    await s.append(r);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  if (c % 30 === 0) console.log(c, rows, Math.round(process.memoryUsage().rss / 1048576), 'MB');
}
await s.close();
console.log('rows', rows, 'peak MB', Math.round(peak / 1048576), 's', ((performance.now() - t) / 1000).toFixed(1));
