/**
 * The report as a person sees it: written by the built CLI, opened from a file:// URL in
 * Debian's Chromium (headless, a fresh profile), every chart drawn, nothing fetched, no
 * console error, and a screenshot taken. Without /usr/bin/chromium this says plainly that
 * it did not run (.ci/run installs it, so CI always runs it).
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { reportWarehouse } from '../helpers/report-warehouse.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const present = existsSync(CHROMIUM);
/** Set to a path (docs/report.png) to keep the screenshot, e.g. for the README. */
const KEEP_SCREENSHOT = process.env.CW_REPORT_SCREENSHOT;

if (!present)
  process.stderr.write(
    `report-browser: NOT RUN: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does it)\n`,
  );

describe.skipIf(!present)(
  `report in headless Chromium${present ? '' : ` (NOT RUN: ${CHROMIUM} is missing)`}`,
  () => {
    let report: string;

    beforeAll(async () => {
      const dataDir = await reportWarehouse();
      const { stdout } = await promisify(execFile)(process.execPath, [
        ensureBuiltCli(),
        'report',
        '--data-dir',
        dataDir,
      ]);
      report = stdout.trim();
      expect(report).toBe(join(dataDir, 'report.html'));
    }, 120_000);

    it('draws every chart from the file alone, with no console error; screenshot taken', async () => {
      const shots = tempDir('cw-report-shot-');
      const context = await chromium.launchPersistentContext(tempDir('cw-chromium-profile-'), {
        executablePath: CHROMIUM,
        args: CHROMIUM_FLAGS,
        viewport: { width: 1100, height: 1400 },
      });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const problems: string[] = [];
        const requests: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('request', (request) => requests.push(request.url()));
        const url = pathToFileURL(report).href;
        await page.goto(url, { waitUntil: 'load' });

        const charts = await page.$$eval('figure.chart', (figures) =>
          figures.map((figure) => {
            const svg = figure.querySelector('svg');
            const box = svg?.getBoundingClientRect();
            const marks = svg ? [...svg.querySelectorAll('.role-mark > *')] : [];
            const drawn = marks.filter((m) => {
              const r = m.getBoundingClientRect();
              return r.width > 0 && r.height > 0;
            });
            return {
              section: figure.closest('section')?.id,
              svg: box ? [box.width, box.height] : null,
              drawn: drawn.length,
            };
          }),
        );
        expect(charts.map((c) => c.section)).toEqual([
          'what-changed',
          'campaigns',
          'networks',
          'influencers',
          'sales',
          'documents',
        ]);
        for (const chart of charts) {
          expect(
            chart.svg?.every((side) => side > 0),
            chart.section,
          ).toBe(true);
          expect(chart.drawn, chart.section).toBeGreaterThan(0);
        }
        expect(await page.$$eval('script', (s) => s.length)).toBe(0);
        expect(requests).toEqual([url]);
        expect(problems).toEqual([]);

        const shot = join(shots, 'report.png');
        await page.screenshot({ path: shot, fullPage: true });
        expect(statSync(shot).size).toBeGreaterThan(20_000);
        if (KEEP_SCREENSHOT)
          await page.screenshot({ path: KEEP_SCREENSHOT, clip: { x: 0, y: 0, width: 1100, height: 1400 } });
      } finally {
        await context.close();
      }
    });
  },
);
