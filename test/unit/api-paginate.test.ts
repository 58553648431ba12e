import { describe, expect, it } from 'vitest';
import { FatalApiError } from '../../src/api/errors.js';
import { paginate } from '../../src/api/paginate.js';

const ids = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: String(from + i) }));

/** Runs paginate over scripted page bodies, returning the pages yielded and the pages fetched. */
async function run(bodies: (page: number) => unknown, pageSize = 2) {
  const fetched: number[] = [];
  const pages: unknown[][] = [];
  for await (const p of paginate(
    async (page) => {
      fetched.push(page);
      return bodies(page);
    },
    'GET /v3/influencers/campaigns',
    'campaigns',
    pageSize,
  ))
    pages.push(p);
  return { pages, fetched };
}

describe('paginate', () => {
  it('stops at total', async () => {
    const r = await run((page) => ({ campaigns: ids(page * 10, 2), page, page_size: 2, total: 4 }));
    expect(r.fetched).toEqual([1, 2]);
    expect(r.pages.flat()).toHaveLength(4);
  });
  it('stops after a short page', async () => {
    const r = await run((page) => ({ campaigns: ids(page * 10, page === 2 ? 1 : 2), page, page_size: 2 }));
    expect(r.fetched).toEqual([1, 2]);
  });
  it('stops at an empty page', async () => {
    const r = await run((page) => ({ campaigns: page === 3 ? [] : ids(page * 10, 2), page, page_size: 2 }));
    expect(r.fetched).toEqual([1, 2, 3]);
    expect(r.pages).toHaveLength(2);
  });
  it('takes a response without paging fields as one complete page', async () => {
    const r = await run(() => ({ campaigns: ids(1, 2) }));
    expect(r.fetched).toEqual([1]);
  });
  it('detects a server repeating the same page', async () => {
    await expect(run(() => ({ campaigns: ids(1, 2), page: 1, page_size: 2, total: 10 }))).rejects.toThrow(
      /loop detected in pagination/,
    );
  });
  it('detects a server cycling through pages', async () => {
    const r = run((page) => ({ campaigns: ids((page % 2) * 10, 2), page, page_size: 2, total: 1000 }));
    await expect(r).rejects.toBeInstanceOf(FatalApiError);
    await expect(r).rejects.toThrow(/loop detected in pagination.*page 3 repeats page 1/);
  });
  it('detects more pages than the announced total allows', async () => {
    // A server whose total grows as it pages would otherwise never stop.
    let total = 7;
    const r = run((page) => ({ campaigns: ids(page * 10, 2), page, page_size: 2, total: total++ * 2 }));
    await expect(r).rejects.toThrow(/loop detected in pagination/);
  });
  it('fails naming the endpoint when the array key is missing', async () => {
    await expect(run(() => ({ items: [] }))).rejects.toThrow(/GET \/v3\/influencers\/campaigns.*"campaigns"/);
  });
});
