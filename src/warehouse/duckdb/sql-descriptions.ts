/**
 * The descriptions of the warehouse's tables, views and columns, read from the comments of the
 * SQL that declares them (the only place they are written; the catalog's COMMENT ON, the
 * `tables` command and BI tools' schema browsers show them):
 *
 * - a migration's `create table`: the comment lines right above it describe the table, a
 *   column line's trailing `-- text` the column; `alter table t add column c ...; -- text` (or
 *   the comment lines right above it) a column a later migration adds;
 * - a view file's header: its first paragraph, `-- <view>: text`, describes the view, and a
 *   block under `-- Columns:` its columns, one entry `--   name: text` each (or
 *   `--   a, b: text` for several), continued by lines indented deeper;
 * - a block `-- Shared columns ...:` (in 001_init.sql) describes a column of that name in any
 *   table or view that does not describe it itself.
 *
 * Pure: text in, descriptions out. test/integration/warehouse-catalog-comments.test.ts holds
 * every column of the catalog described.
 */

/**
 * What a table's or view's comments say about it and its columns (a column they do not
 * describe: '' or absent; sharedColumns may describe it).
 */
export interface Description {
  readonly text: string;
  readonly columns: ReadonlyMap<string, string>;
}

const CREATE_TABLE = /^create table ([a-z_][a-z0-9_]*) \($/;
const COLUMN_LINE = /^\s+([a-z_][a-z0-9_]*)\s+[a-z][^-]*?(?:--\s*(.*))?$/;
const ADD_COLUMN = /^alter table ([a-z_][a-z0-9_]*) add column ([a-z_][a-z0-9_]*)\b[^;]*;\s*(?:--\s*(.*))?$/;
const BLOCK_HEADER = /^--\s*(Shared columns|Columns)\b.*:\s*$/;
const ENTRY = /^--( {2,})([a-z_][a-z0-9_]*(?:,\s*[a-z_][a-z0-9_]*)*):\s+(.*)$/;
const RULE = /^--\s*-{3,}/;

/** The tables the migrations create, each with its description and its columns' (in migration order). */
export function describeMigrations(sqls: readonly string[]): Map<string, Description> {
  const tables = new Map<string, { text: string; columns: Map<string, string> }>();
  for (const sql of sqls) {
    const lines = sql.split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i]!;
      const create = CREATE_TABLE.exec(line);
      if (create) {
        const at = i;
        const columns = new Map<string, string>();
        let last: string | undefined;
        for (i += 1; i < lines.length && !lines[i]!.startsWith(')'); i += 1) {
          const body = lines[i]!;
          const comment = /^\s+--\s*(.*)$/.exec(body);
          if (comment && last) columns.set(last, join(columns.get(last), comment[1]!));
          const column = comment ? null : COLUMN_LINE.exec(body);
          if (!column) continue;
          last = column[1]!;
          columns.set(last, column[2]?.trim() ?? '');
        }
        tables.set(create[1]!, { text: commentAbove(lines, at), columns });
        continue;
      }
      const add = ADD_COLUMN.exec(line);
      if (add) tables.get(add[1]!)?.columns.set(add[2]!, add[3]?.trim() || commentAbove(lines, i));
    }
  }
  return tables;
}

/** A view's description and its columns' (those its header names), from its file's header. */
export function describeView(name: string, sql: string): Description {
  const header: string[] = [];
  for (const line of sql.split('\n')) {
    if (!line.startsWith('--')) break;
    header.push(line);
  }
  const summary: string[] = [];
  for (const line of header) {
    if (line.trim() === '--' || BLOCK_HEADER.test(line)) break;
    summary.push(line.replace(/^--\s?/, ''));
  }
  const text = summary
    .join(' ')
    .replace(new RegExp(`^${name}:\\s*`), '')
    .trim();
  const start = header.findIndex((line) => /^--\s*Columns\b.*:\s*$/.test(line));
  const columns = start < 0 ? new Map<string, string>() : entries(header, start + 1);
  return { text: text.charAt(0).toUpperCase() + text.slice(1), columns };
}

/** The entries of every `-- Shared columns ...:` block of `sqls`. */
export function sharedColumns(sqls: readonly string[]): Map<string, string> {
  const shared = new Map<string, string>();
  for (const sql of sqls) {
    const lines = sql.split('\n');
    lines.forEach((line, i) => {
      if (/^--\s*Shared columns\b.*:\s*$/.test(line))
        for (const [name, text] of entries(lines, i + 1)) shared.set(name, text);
    });
  }
  return shared;
}

/** The `--   name: text` entries from line `from` on, until a line that is none (or continues none). */
function entries(lines: readonly string[], from: number): Map<string, string> {
  const found = new Map<string, string>();
  let names: string[] = [];
  let indent = 0;
  for (let i = from; i < lines.length; i += 1) {
    const line = lines[i]!;
    const entry = ENTRY.exec(line);
    const continued = /^--( +)(\S.*)$/.exec(line);
    if (entry && (names.length === 0 || entry[1]!.length <= indent)) {
      indent = entry[1]!.length;
      names = entry[2]!.split(',').map((n) => n.trim());
      for (const n of names) found.set(n, entry[3]!.trim());
    } else if (continued && names.length > 0 && continued[1]!.length > indent) {
      for (const n of names) found.set(n, join(found.get(n), continued[2]!));
    } else break;
  }
  return found;
}

/** The comment lines right above line `at` (no blank line between), rules left out, as one text. */
function commentAbove(lines: readonly string[], at: number): string {
  const above: string[] = [];
  for (let i = at - 1; i >= 0 && lines[i]!.startsWith('--'); i -= 1)
    if (!RULE.test(lines[i]!)) above.unshift(lines[i]!.replace(/^--\s?/, '').trim());
  return above.join(' ').trim();
}

function join(before: string | undefined, more: string): string {
  return before ? `${before} ${more.trim()}` : more.trim();
}
