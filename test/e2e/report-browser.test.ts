/**
 * The report as a person sees it, after `npm start` (the demo: fourteen nights, one campaign's
 * engagement spiked tenfold on the last, which a history check flags): the report.html the
 * built CLI wrote, opened from a file:// URL in Debian's Chromium (headless, a fresh profile)
 * in a desktop window (1280 px) and a phone's (390 px). In each: every chart drawn, none
 * shrunk past reading, nothing wider than its card or the window, nothing fetched, no console
 * error; the headline counts the failing history check; a screenshot taken. Without
 * /usr/bin/chromium this says plainly that it did not run (.ci/run installs it, so CI always
 * runs it).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { measureReport } from '../helpers/report-layout.js';
import { run } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const present = existsSync(CHROMIUM);
/** Set to a path (docs/report.png) to keep the 1280 px screenshot's top, e.g. for the README. */
const KEEP_SCREENSHOT = process.env.CW_REPORT_SCREENSHOT;
/** A chart drawn for the window may be scaled down a little to fit, never past reading. */
const MIN_SCALE = 0.8;

if (!present)
  process.stderr.write(
    `report-browser: NOT RUN: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does it)\n`,
  );

describe.skipIf(!present)(
  `report in headless Chromium${present ? '' : ` (NOT RUN: ${CHROMIUM} is missing)`}`,
  () => {
    let report: string;
    let context: BrowserContext;
    const shots = tempDir('cw-report-shot-');

    beforeAll(async () => {
      ensureBuiltCli();
      const { code, stdout, stderr } = await run(
        ['demo', '--data-dir', tempDir('cw-report-browser-')],
        {},
        {
          timeoutMs: 590_000,
        },
      );
      expect(code, stderr).toBe(0);
      report = /^wrote (\S+report\.html)/m.exec(stdout)?.[1] ?? '';
      expect(existsSync(report), stdout).toBe(true);
      context = await chromium.launchPersistentContext(tempDir('cw-chromium-profile-'), {
        executablePath: CHROMIUM,
        args: CHROMIUM_FLAGS,
      });
    }, 600_000);

    afterAll(async () => {
      await context?.close();
    });

    it.each([
      [1280, 'chart-wide'],
      [390, 'chart-narrow'],
    ])(
      'at %i px: every chart drawn (%s) and fitting, no card overflowing, nothing fetched',
      async (width, layout) => {
        const page = await context.newPage();
        try {
          await page.setViewportSize({ width, height: 900 });
          const problems: string[] = [];
          const requests: string[] = [];
          page.on('console', (message) => {
            if (message.type() === 'error') problems.push(message.text());
          });
          page.on('pageerror', (error) => problems.push(error.message));
          page.on('request', (request) => requests.push(request.url()));
          const url = pathToFileURL(report).href;
          await page.goto(url, { waitUntil: 'load' });

          const seen = await measureReport(page);
          expect(seen.charts.map((c) => c.section)).toEqual([
            'what-changed',
            'campaigns',
            'networks',
            'influencers',
            'sales',
            'documents',
          ]);
          for (const chart of seen.charts) {
            expect({ section: chart.section, shown: chart.shown, layout: chart.layout }).toEqual({
              section: chart.section,
              shown: 1,
              layout,
            });
            expect(chart.width * chart.height, chart.section).toBeGreaterThan(0);
            expect(chart.drawn, `${chart.section}: no mark drawn`).toBeGreaterThan(0);
            expect(chart.scale, `${chart.section}: shrunk to fit`).toBeGreaterThanOrEqual(MIN_SCALE);
          }
          expect(seen.overflowing).toEqual([]);
          expect(seen.pastWindow).toEqual([]);
          expect(seen.pageWidth).toBeLessThanOrEqual(width);

          // What changed: every campaign's move shows as a bar, the spike's millions beside moves
          // of a few (a move of 0 draws no bar).
          const changes = seen.charts.find((c) => c.section === 'what-changed')!;
          const moves = changes.bars.filter((bar) => !/: 0;/.test(bar.label));
          expect(moves.length).toBeGreaterThanOrEqual(2 * 5);
          for (const bar of moves) expect(bar.width, bar.label).toBeGreaterThanOrEqual(3);

          // Over time: the last x label of every small chart is the latest snapshot's date.
          const latest = (await page.textContent('#latest-snapshot'))?.trim() ?? '';
          const day = new Date(`${latest}T00:00:00Z`).toLocaleDateString('en-US', {
            month: 'short',
            day: '2-digit',
            timeZone: 'UTC',
          });
          const campaigns = seen.charts.find((c) => c.section === 'campaigns')!;
          expect(campaigns.axisLabels).toContain(day);
          expect(campaigns.axisLabels.filter((label) => label === day)).toHaveLength(10);

          // The headline counts the failing history check: a warning, not a green "all passed".
          const summary = await page.locator('#checks-summary').textContent();
          expect(summary).toMatch(
            /^[12] of \d+ checks failing: \d+ rule checks, none failing; [12] of \d+ history checks failing/,
          );
          expect(await page.locator('#checks-summary .ok').count()).toBe(0);
          expect(await page.locator('#checks-summary .warn').count()).toBe(1);
          expect(await page.locator('#t-checks').textContent()).toContain('campaign_engagement_anomaly');

          expect(await page.$$eval('script', (s) => s.length)).toBe(0);
          expect(requests).toEqual([url]);
          expect(problems).toEqual([]);

          const shot = join(shots, `report-${width}.png`);
          await page.screenshot({ path: shot, fullPage: true });
          expect(statSync(shot).size).toBeGreaterThan(20_000);
          if (KEEP_SCREENSHOT && width === 1280)
            await page.screenshot({
              path: KEEP_SCREENSHOT,
              fullPage: true,
              clip: { x: 0, y: 0, width, height: 1800 },
            });
        } finally {
          await page.close();
        }
      },
    );
  },
);
