/**
 * `campaign-warehouse report`: reads the published warehouse (read-only), renders the page
 * and writes it beside nothing else: a temporary file in the target's folder renamed over
 * the target, so a reader never opens half a report.
 */
import { statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { firstLine } from '../util/first-line.js';
import { UserError } from '../util/user-error.js';
import { requirePublished } from '../warehouse/index.js';
import { loadReportData } from './load-report-data.js';
import type { ReportOptions } from './report-options.js';
import { renderReportPage } from './report-page.js';

export interface WrittenReport {
  readonly path: string;
  readonly bytes: number;
  /** Milliseconds reading the warehouse, then drawing and writing the page. */
  readonly readMs: number;
  readonly renderMs: number;
}

export async function writeReport(options: ReportOptions, now = new Date()): Promise<WrittenReport> {
  // Both checked before the work: a bad --out is said at once, not after the queries.
  requirePublished(options.dataDir);
  const temp = await openTarget(options.out);
  try {
    const started = performance.now();
    const data = await loadReportData(options, now).catch((error: unknown) => {
      if (error instanceof UserError) throw error;
      throw new UserError(`cannot read the warehouse for the report: ${firstLine(error)}`, {
        cause: error,
        exitCode: 1,
      });
    });
    const read = performance.now();
    const html = await renderReportPage(data);
    await temp.handle.writeFile(html, 'utf8');
    await temp.handle.close();
    await rename(temp.path, options.out);
    return {
      path: options.out,
      bytes: Buffer.byteLength(html),
      readMs: read - started,
      renderMs: performance.now() - read,
    };
  } catch (error) {
    await temp.handle.close().catch(() => undefined);
    await rm(temp.path, { force: true });
    throw error;
  }
}

/** Creates the temporary file beside --out, or says in one line why --out cannot be written. */
async function openTarget(out: string) {
  const isDirectory = (() => {
    try {
      return statSync(out).isDirectory();
    } catch {
      return false;
    }
  })();
  if (isDirectory) throw new UserError(`--out ${out}: is a directory; name the HTML file to write`);
  const path = `${out}.${process.pid}.tmp`;
  try {
    return { path, handle: await open(path, 'wx') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const why =
      code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : code;
    throw new UserError(`--out ${out}: cannot write there (${why})`, { cause: error });
  }
}
