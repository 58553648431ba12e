import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TABLES } from '../../src/contracts/table-registry.js';
import { listViews } from '../../src/warehouse/duckdb/create-views.js';

const README = readFileSync('README.md', 'utf8');

/** The lines of the README's section that starts with `heading`, up to the next heading of any level. */
function section(heading: string): string[] {
  const lines = README.split('\n');
  const start = lines.indexOf(heading);
  expect(start, `README has "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && /^#{1,6} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The backticked names of a text (`a`, `b_c`), in order. */
const names = (text: string) => [...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

describe("the README's list of the warehouse's tables and views", () => {
  const warehouse = section('## The warehouse: `data/warehouse.duckdb`');

  it('names in its table of tables exactly the tables of the registry', () => {
    const head = warehouse.findIndex((line) => /^\| table \|/.test(line));
    expect(head, 'the table of tables (| table | one row per | from |)').toBeGreaterThanOrEqual(0);
    const after = warehouse.slice(head + 2);
    const end = after.findIndex((line) => !line.startsWith('|'));
    const rows = after.slice(0, end < 0 ? undefined : end);
    const listed = rows.flatMap((row) => names(row.split('|')[1]!));
    expect([...listed].sort()).toEqual(Object.keys(TABLES).sort());
    expect(new Set(listed).size, 'each table once').toBe(listed.length);
  });

  it('names every analyst view in its paragraph of views', () => {
    const start = warehouse.findIndex((line) => line.startsWith('Views (analyst layer'));
    expect(start).toBeGreaterThanOrEqual(0);
    const end = warehouse.findIndex((line, i) => i > start && line.trim() === '');
    const paragraph = warehouse.slice(start, end).join(' ');
    for (const view of listViews()) expect(names(paragraph), view.name).toContain(view.name);
  });
});
