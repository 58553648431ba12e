import type { DuckDBConnection } from '@duckdb/node-api';
import type { Row } from '../normalize/rows.js';
import { sqlIdentifier } from './warehouse-paths.js';

/** Segment-less tables whose rows belong to one campaign and come from its 'all' unit. */
export const UNIT_TABLES_WITHOUT_SEGMENT = ['influencer_tag_assignments', 'posts'] as const;

/**
 * The units (segment + campaign) a staging file may hold rows of: those it held when opened
 * and those appended since. A unit outside it has nothing for clearUnit to delete, which
 * spares a new run a delete per table and unit (every unit of a new run is cleared first).
 */
export class StagedUnits {
  readonly #units: Set<string>;
  readonly #segmented: ReadonlySet<string>;

  constructor(segmentedTables: readonly string[], units: Iterable<string> = []) {
    this.#segmented = new Set(segmentedTables);
    this.#units = new Set(units);
  }

  /** Records the units of rows about to be appended to `table` (tables of no unit are ignored). */
  note(table: string, rows: readonly Row[]): void {
    const segmented = this.#segmented.has(table);
    if (!segmented && !(UNIT_TABLES_WITHOUT_SEGMENT as readonly string[]).includes(table)) return;
    let last: string | undefined;
    for (const row of rows) {
      const key = unitKey(segmented ? row.segment : 'all', row.campaign_id);
      if (key !== last) this.#units.add(key);
      last = key;
    }
  }

  /** Whether the unit may have staged rows. */
  has(segment: string, campaignId: string): boolean {
    return this.#units.has(unitKey(segment, campaignId));
  }

  /** The unit's rows were deleted. */
  forget(segment: string, campaignId: string): void {
    this.#units.delete(unitKey(segment, campaignId));
  }
}

/** The units a staging file holds rows of: one scan of its unit tables (none when new). */
export async function stagedUnits(
  connection: DuckDBConnection,
  segmentedTables: readonly string[],
): Promise<StagedUnits> {
  const selects = [
    ...segmentedTables.map((t) => `select distinct segment, campaign_id from ${sqlIdentifier(t)}`),
    ...UNIT_TABLES_WITHOUT_SEGMENT.map((t) => `select distinct 'all', campaign_id from ${sqlIdentifier(t)}`),
  ];
  const reader = await connection.runAndReadAll(selects.join(' union '));
  return new StagedUnits(
    segmentedTables,
    reader.getRows().map((row) => unitKey(row[0], row[1])),
  );
}

function unitKey(segment: unknown, campaignId: unknown): string {
  return `${segment}\u0000${campaignId}`;
}
