// Child of warehouse-lake-schema-change.test.ts: a later release of the tool, run from a copy of
// the package (its dist/, its sql/ with an extra migration) as a user would run the upgrade.
// The shipped code finds sql/ from the running code (packageRoot), so this copy's migrations
// are the ones it applies. Stages one day of rows and publishes them with publishSync (the
// first publish of the release rewrites the schema anchors and the catalog).
// Usage: node next-release-publish-child.mjs <releaseDir> <dataDir> <input.json>
//   input.json: {"snapshotDate":"YYYY-MM-DD","segments":[...],"rows":{<table>:[...]},"run":{...}}
// Prints {"rowsWritten":n} on success.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [release, dataDir, inputFile] = process.argv.slice(2);
const input = JSON.parse(readFileSync(inputFile, 'utf8'));
const load = (module) => import(pathToFileURL(join(release, 'dist', 'src', 'warehouse', module)).href);
const { openStaging } = await load('open-staging.js');
const { publishSync } = await load('publish-sync.js');

const staging = await openStaging(dataDir, `${input.snapshotDate}-next-release`);
await staging.append(input.rows);
await staging.close();
const result = await publishSync(dataDir, {
  stagingPath: staging.path,
  snapshotDate: input.snapshotDate,
  segments: input.segments,
  run: input.run,
});
process.stdout.write(`${JSON.stringify({ rowsWritten: result.rowsWritten })}\n`);
