const { generatePages } = await import('./bench/load-pages.js');
const { localNormalizePosts, localNormalizeInfluencers } = await import('./bench/load-local-normalize.js');
const { openStaging } = await import('./src/warehouse/open-staging.js');
const pages = generatePages(30, 2200, 200);
const ctxOf = (c) => ({ snapshotDate: '2026-11-20', segment: 'all', seenAt: '2026-11-20T21:30:00.000Z', campaignId: c.campaignId });
let t = performance.now(); const all = []; let n = 0;
for (const c of pages) { for (const p of c.posts) all.push(localNormalizePosts(p, ctxOf(c))); for (const p of c.influencers) all.push(localNormalizeInfluencers(p, ctxOf(c))); }
for (const r of all) for (const v of Object.values(r)) n += v.length;
console.log('normalize', n, (performance.now() - t).toFixed(0), 'ms');
const s = await openStaging('/tmp/wexp/prof' + Date.now(), 'x');
t = performance.now();
for (const r of all) await s.append(r);
console.log('append', (performance.now() - t).toFixed(0), 'ms');
t = performance.now(); await s.close(); console.log('close', (performance.now() - t).toFixed(0), 'ms');
