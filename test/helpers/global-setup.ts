/** Vitest global setup: worker threads (the sink's loader) run from dist/, so build it when src/ is newer. */
import { ensureBuiltCli } from './built-cli.js';

export default function setup(): void {
  ensureBuiltCli();
}
