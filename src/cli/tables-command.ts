import type { Command } from 'commander';
import { UserError } from '../util/user-error.js';
import type { CatalogColumn, CatalogObject } from './catalog-objects.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';
import { readableDataDir } from './readable-data-dir.js';

/** Where text output wraps when stdout is not a terminal (a terminal: its width). */
const DEFAULT_WIDTH = 100;
/** Below this, descriptions go on lines of their own rather than in a column too narrow to read. */
const MIN_DESCRIPTION_WIDTH = 30;

/**
 * `campaign-warehouse tables [name]`: the tables and views of the published warehouse with
 * their descriptions, or one's columns with their types and descriptions, as the catalog holds
 * them (what BI tools' schema browsers show). Opens the catalog read-only, as `query` does.
 */
export function registerTables(program: Command): void {
  program
    .command('tables')
    .description("list the warehouse's tables and views with their descriptions, or one's columns")
    .argument('[name]', 'a table or view: show its columns, their types and descriptions')
    .option('--json', 'print JSON instead of text')
    .option(...dataDirOption('folder of warehouse.duckdb'))
    .option(...CONFIG_OPTION)
    .action(
      async (name: string | undefined, options: { json?: boolean; dataDir?: string; config?: string }) => {
        const dataDir = await readableDataDir(options);
        const [{ withReadOnly, tableSpec }, { listCatalogObjects, catalogColumns, similarNames }] =
          await Promise.all([import('../warehouse/index.js'), import('./catalog-objects.js')]);
        const width = process.stdout.isTTY ? (process.stdout.columns ?? DEFAULT_WIDTH) : DEFAULT_WIDTH;
        const output = await withReadOnly(dataDir, async (query) => {
          const objects = await listCatalogObjects(query, (table) => tableSpec(table) !== undefined);
          if (name === undefined)
            return options.json ? `${JSON.stringify(objects, null, 2)}\n` : objectsText(objects, width);
          // DuckDB's names are case-insensitive: so is this lookup.
          const object = objects.find((o) => o.name.toLowerCase() === name.toLowerCase());
          if (!object) {
            const similar = similarNames(objects, name);
            throw new UserError(
              `no table or view named "${name}" in the warehouse${similar.length > 0 ? ` (did you mean ${similar.join(', ')}?)` : ''}: \`campaign-warehouse tables\` lists them`,
            );
          }
          const columns = await catalogColumns(query, object.name);
          return options.json
            ? `${JSON.stringify({ ...object, columns }, null, 2)}\n`
            : columnsText(object, columns, width);
        });
        process.stdout.write(output);
      },
    );
}

function objectsText(objects: readonly CatalogObject[], width: number): string {
  const rows = objects.map((o) => [o.name, o.kind, o.description]);
  return `${columnsOf(['name', 'kind', 'description'], rows, width)}\n\`campaign-warehouse tables <name>\` shows a table's or view's columns.\n`;
}

function columnsText(object: CatalogObject, columns: readonly CatalogColumn[], width: number): string {
  const head = `${object.name} (${object.kind})\n${wrap(object.description, width - 2)
    .map((line) => `  ${line}`)
    .join('\n')}\n\n`;
  return (
    head +
    columnsOf(
      ['column', 'type', 'description'],
      columns.map((c) => [c.name, c.type, c.description]),
      width,
    )
  );
}

/** Rows of two short fields and a description wrapped into the width left (or below, when little is). */
function columnsOf(head: readonly string[], rows: readonly string[][], width: number): string {
  const all = [head, ...rows];
  const first = Math.max(...all.map((r) => r[0]!.length));
  const second = Math.max(...all.map((r) => r[1]!.length));
  const indent = first + second + 4;
  const room = width - indent;
  const lines: string[] = [];
  for (const [a, b, text] of all) {
    const left = `${a!.padEnd(first)}  ${b!.padEnd(second)}  `;
    if (room < MIN_DESCRIPTION_WIDTH) {
      lines.push(left.trimEnd(), ...wrap(text!, width - 4).map((line) => `    ${line}`));
      continue;
    }
    const [firstLine = '', ...more] = wrap(text!, room);
    lines.push(`${left}${firstLine}`.trimEnd(), ...more.map((line) => `${' '.repeat(indent)}${line}`));
  }
  return `${lines.join('\n')}\n`;
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
