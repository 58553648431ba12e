// Preloaded into a benchmarked child process (node --import): reports its peak RSS on exit.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nBENCH_MAX_RSS_KB ${process.resourceUsage().maxRSS}\n`);
});
