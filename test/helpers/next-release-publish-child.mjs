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
// The warehouse's front door: what code outside src/warehouse imports.
const { openStaging, publishSync } = await import(
  pathToFileURL(join(release, 'dist', 'src', 'warehouse', 'index.js')).href
);

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
