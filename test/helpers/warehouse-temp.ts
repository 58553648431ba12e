import { publishSync } from '../../src/warehouse/publish-sync.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import type { PublishResult } from '../../src/warehouse/types.js';
import { sampleRun, sampleUnitRows } from './warehouse-rows.js';

/** Stages the sample rows of the given segments for one date and publishes them. */
export async function stageAndPublish(
  dataDir: string,
  snapshotDate: string,
  segments: string[] = ['all'],
  options: { runId?: string; posts?: number; campaigns?: string[] } = {},
): Promise<PublishResult> {
  const staging = await openStaging(dataDir, `${snapshotDate}-${options.runId ?? 'r1'}`);
  for (const segment of segments) {
    for (const campaignId of options.campaigns ?? ['c1']) {
      await staging.append(sampleUnitRows({ snapshotDate, segment, campaignId, posts: options.posts }));
    }
  }
  await staging.close();
  return publishSync(dataDir, {
    stagingPath: staging.path,
    snapshotDate,
    segments,
    run: sampleRun(options.runId ?? 'r1', snapshotDate),
  });
}
