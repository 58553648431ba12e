/**
 * `npm run bench -- parse [--campaigns N]`: what reading a reply's JSON costs the sync. The
 * client parses every reply with parseJsonExact (src/util/parse-json-exact.ts): one scan of the
 * text (depth bound, integer literals of 16+ digits), then JSON.parse, or the exact parser when
 * the text holds such a literal. Figures, on the load bench's posts and influencers pages as the
 * API writes them: MB/s of JSON.parse alone, of parseJsonExact on the same text (the common path),
 * and of parseJsonExact on pages each holding one integer beyond 2^53 (the exact path).
 * Each is the best of 5 passes. Measurements: bench/RESULTS.md.
 */
import Table from 'cli-table3';
import { parseJsonExact } from '../src/util/parse-json-exact.js';
import { generatePages, PAGE_SIZE } from './load-pages.js';

const DEFAULT_CAMPAIGNS = 20;
const PASSES = 5;

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`bench parse: --${name} must be a positive number`);
  return value;
}

/** The best rate of PASSES passes of `parse` over every text, MB/s. */
function rate(texts: readonly string[], megabytes: number, parse: (text: string) => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < PASSES; pass++) {
    const started = performance.now();
    for (const text of texts) parse(text);
    best = Math.min(best, performance.now() - started);
  }
  return Math.round((megabytes / best) * 1000 * 10) / 10;
}

export async function runParseBench(args: string[]): Promise<Record<string, number>> {
  const campaigns = option(args, 'campaigns', DEFAULT_CAMPAIGNS);
  const texts: string[] = [];
  for (const campaign of generatePages(campaigns, 2_200, 200)) {
    const reply = (key: string, page: unknown[], n: number) =>
      JSON.stringify({ [key]: page, page: n + 1, page_size: PAGE_SIZE, total: 2_200 });
    texts.push(...campaign.posts.map((page, n) => reply('posts', page, n)));
    texts.push(...campaign.influencers.map((page, n) => reply('influencers', page, n)));
  }
  // The same pages, each with one count beyond 2^53 as the API would write it.
  const exact = texts.map((text) => text.replace(/"engagement":\d+/, '"engagement":9007199254740993'));
  const megabytes = texts.reduce((sum, text) => sum + text.length, 0) / 1e6;
  const figures = {
    pages: texts.length,
    megabytes: Math.round(megabytes * 10) / 10,
    json_parse_mb_s: rate(texts, megabytes, JSON.parse),
    parse_exact_common_mb_s: rate(texts, megabytes, (text) => parseJsonExact(text)),
    parse_exact_big_integer_mb_s: rate(exact, megabytes, (text) => parseJsonExact(text)),
  };
  const table = new Table({ head: ['parser', 'MB/s', 'vs JSON.parse'] });
  for (const [name, value] of [
    ['JSON.parse', figures.json_parse_mb_s],
    ['parseJsonExact, common pages', figures.parse_exact_common_mb_s],
    ['parseJsonExact, a big integer per page', figures.parse_exact_big_integer_mb_s],
  ] as const)
    table.push([name, value, (value / figures.json_parse_mb_s).toFixed(2)]);
  process.stdout.write(`${figures.pages} pages, ${figures.megabytes} MB\n${table.toString()}\n`);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  return figures;
}
