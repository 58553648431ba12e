import type { DuckDBConnection } from '@duckdb/node-api';
import type { Row } from '../../contracts/rows.js';
import { ALL_SEGMENT, tableSpec, UNIT_TABLES } from '../../contracts/table-registry.js';
import { sqlIdentifier } from '../duckdb/warehouse-paths.js';

/**
 * The units (segment + campaign) a staging file may hold rows of: those it held when opened
 * and those appended since. A unit outside it has nothing for clearUnit to delete, which
 * spares a new run a delete per table and unit (every unit of a new run is cleared first).
 * A unit-scoped table without a segment column holds rows of the 'all' unit (table-registry.ts).
 */
export class StagedUnits {
  readonly #units: Set<string>;

  constructor(units: Iterable<string> = []) {
    this.#units = new Set(units);
  }

  /** Records the units of rows about to be appended to `table` (tables of no unit are ignored). */
  note(table: string, rows: readonly Row[]): void {
    const spec = tableSpec(table);
    if (!spec?.unitScoped) return;
    // Rows come grouped by unit: a key is built only where the unit changes, not per row.
    let lastSegment: unknown;
    let lastCampaign: unknown;
    for (const row of rows) {
      const segment = spec.segmented ? row.segment : ALL_SEGMENT;
      if (segment === lastSegment && row.campaign_id === lastCampaign) continue;
      lastSegment = segment;
      lastCampaign = row.campaign_id;
      this.#units.add(unitKey(segment, row.campaign_id));
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
export async function stagedUnits(connection: DuckDBConnection): Promise<StagedUnits> {
  const selects = UNIT_TABLES.map((table) =>
    tableSpec(table)?.segmented
      ? `select distinct segment, campaign_id from ${sqlIdentifier(table)}`
      : `select distinct '${ALL_SEGMENT}', campaign_id from ${sqlIdentifier(table)}`,
  );
  const reader = await connection.runAndReadAll(selects.join(' union '));
  return new StagedUnits(reader.getRows().map((row) => unitKey(row[0], row[1])));
}

function unitKey(segment: unknown, campaignId: unknown): string {
  return `${segment}\u0000${campaignId}`;
}
