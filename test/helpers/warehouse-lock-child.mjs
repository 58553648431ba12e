// Holds the publish lock (an exclusive transaction on <dataDir>/.publish.lock, as
// src/warehouse/publish-lock.ts takes it) from another process.
// Usage: node warehouse-lock-child.mjs <lockFile> <ms>   prints "locked", then holds for <ms>
// (or until killed: the OS releases the lock with the process).
import { Database } from '../../dist/src/state/sqlite-database.js';

const [file, ms] = process.argv.slice(2);
const db = new Database(file, { timeout: 0 });
db.exec('begin exclusive');
process.stdout.write('locked\n');
setTimeout(() => {
  db.exec('rollback');
  db.close();
  process.stdout.write('released\n');
}, Number(ms));
