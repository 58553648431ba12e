/**
 * Every table of the warehouse, declared once. The migrations (sql/warehouse/migrations/)
 * define its columns and types; this says how the code treats it, and everything that lists
 * tables derives from here: the row types of normalization (src/normalize/rows.ts), the
 * staging file's units, the keys publishing enforces, the lake's layout by kind, the catalog
 * and the generated `latest_<fact>` views. test/integration/warehouse-table-registry.test.ts
 * holds it against the migrations (the same tables, keys and JSON columns as columns).
 * What a table and its columns mean is written once, as comments of the migration that creates
 * them, and read from there into the catalog (src/warehouse/duckdb/sql-descriptions.ts): not here.
 *
 * Adding a daily fact table: a migration, an entry here, a normalizer that returns its rows.
 *
 * Pure data, no DuckDB: normalization imports it without loading the warehouse.
 */

/**
 * How a table is written and laid out in the lake (docs/lake.md):
 *   fact:   daily figures of the extractor; one file per day of the open ten days and segment
 *           (or `all`), one per closed ten days, month or year and segment, all holding
 *           snapshot_date (compactFiles: one for the open ten days, one for the open year's
 *           closed ten days, one per closed year); a sync replaces the date's rows of the
 *           segments it fetched
 *   entity: the extractor's latest attributes of each entity, upserted by key (first_seen_at
 *           kept), in one file per month first seen
 *   stream: the sink's rows; one partition per received date, one part per publish, merged
 *           per closed day; kept exactly once by key
 *   whole:  a small table rewritten whole (its rows replaced by key)
 */
export type TableKind = 'fact' | 'entity' | 'stream' | 'whole';

export interface TableSpec {
  readonly kind: TableKind;
  /** The documented key (not declared as a constraint, so bulk loads stay fast; publishing enforces it). */
  readonly keys: readonly string[];
  /** Rows carry a `segment` (facts replaced per snapshot_date and segment; else 'all' only). */
  readonly segmented?: boolean;
  /**
   * Rows belong to one campaign's unit of work (segment + campaign): the staging file clears
   * them when the unit is fetched again. A segment-less unit table belongs to the 'all' unit.
   */
  readonly unitScoped?: boolean;
  /** Staged rows are unique on the key by construction, so publishing skips deduplication. */
  readonly stagedUnique?: boolean;
  /**
   * The column a table's files are split by: snapshot_date (facts: a file per day or closed
   * month, holding the column) or received_date (streams: hive folders, of received_at).
   */
  readonly partitionColumn?: string;
  /** Columns of type JSON (wide: the lake writes the table in smaller row groups). */
  readonly jsonColumns?: readonly string[];
  /** Facts: has the analyst view latest_<table> (its latest snapshot per segment). */
  readonly latestView?: boolean;
  /**
   * Facts: the view opens only the files of the `last_date=` folders a filter on snapshot_date
   * can need, and reads without union_by_name (src/warehouse/lake/catalog/view-sql.ts). For
   * the per-post tables: a row per post and day makes their year and month files' footers most
   * of what a one-date question pays for. The other facts' views open every file with
   * union_by_name: with every footer read DuckDB knows their row counts and plans whole-history
   * joins over them well (pruning made such joins slower), and their files are small. Figures:
   * bench/RESULTS.md, "Figures moved out of code comments".
   */
  readonly prunedByDate?: boolean;
  /**
   * Facts of a few rows per campaign a day (a few hundred rows): few files at any date, so a
   * question over the whole history opens about as many files as a native table has (DuckDB pays
   * for each file it opens, which for these small tables is most of a question's time:
   * bench/RESULTS.md, "Figures moved out of code comments"). The open ten days are one file a
   * publish rewrites (its ten days at most), the open year's closed ten days one file the upkeep
   * rewrites when ten days close (its year so far), each closed year one file
   * (src/warehouse/lake/core/lake-layout.ts, closedPeriodOf). A table of many rows a day keeps a
   * file per day, closed ten days, month and year: rewriting its year would cost what is stored,
   * not what changes.
   */
  readonly compactFiles?: boolean;
  /**
   * Facts: columns a migration added that normalization computes (from the same response),
   * which rows published before it get when the lake's schema changes: each file lacking one
   * is rewritten by sql/warehouse/backfill/<table>.sql (src/warehouse/lake/catalog/
   * backfill-facts.ts).
   */
  readonly backfilled?: readonly BackfilledColumn[];
}

/**
 * A computed column (TableSpec.backfilled). A file lacks it when its Parquet schema does, or,
 * for a sum over another column of the same rows (`sumOf`, NULL only where every summed value
 * is), when its footer counts more NULLs in it than in that column: a file written with the
 * column left NULL (a conversion, an upgrade of an older layout, rows staged before it).
 */
export interface BackfilledColumn {
  readonly column: string;
  readonly sumOf?: string;
}

/** The segment of the unfiltered figures. */
export const ALL_SEGMENT = 'all';

/** The partition column of the stream tables: the UTC date of received_at. */
export const STREAM_PARTITION_COLUMN = 'received_date';

const DAY = 'snapshot_date';

/** What an entry adds to its kind's defaults (never the kind). */
type Extras = Omit<Partial<TableSpec>, 'kind' | 'keys'>;

/** A daily fact fetched per segment and campaign. */
const unitFact = (keys: readonly string[], more: Extras = {}) =>
  ({
    kind: 'fact',
    keys: [DAY, 'segment', ...keys],
    segmented: true,
    unitScoped: true,
    partitionColumn: DAY,
    latestView: true,
    ...more,
  }) as const;

/** A daily fact of the unfiltered view only ('all'): no segment column. */
const allFact = (keys: readonly string[], more: Extras = {}) =>
  ({ kind: 'fact', keys: [DAY, ...keys], partitionColumn: DAY, latestView: true, ...more }) as const;

/** What the data checks found in a run's figures (sql/checks/, src/warehouse/checks/). */
const checkFact = (keys: readonly string[], more: Extras = {}) =>
  ({
    kind: 'fact',
    keys: [DAY, 'segment', ...keys],
    segmented: true,
    partitionColumn: DAY,
    ...more,
  }) as const;

const entity = (keys: readonly string[], more: Extras = {}) =>
  ({ kind: 'entity', keys, jsonColumns: ['raw'], ...more }) as const;

export const TABLES = {
  // Entities of the extractor.
  workspaces: entity(['workspace_id']),
  influencer_tags: entity(['tag_id']),
  campaigns: entity(['campaign_id']),
  influencers: entity(['influencer_id']),
  // A unit's posts are deduplicated by id as they are fetched (pipelines/campaign-pipeline.ts,
  // uniqueBy), and a unit is cleared before it is fetched again.
  posts: entity(['campaign_id', 'post_id'], { unitScoped: true, stagedUnique: true }),

  // Daily facts of the extractor.
  campaign_metrics: unitFact(['campaign_id'], { compactFiles: true }),
  campaign_network_metrics: unitFact(['campaign_id', 'network'], {
    compactFiles: true,
    backfilled: [
      { column: 'campaign_posts', sumOf: 'num_posts' },
      { column: 'campaign_engagement', sumOf: 'engagement' },
      { column: 'campaign_emv', sumOf: 'emv' },
      { column: 'campaign_total_reach' },
    ],
  }),
  campaign_network_stats: unitFact(['campaign_id', 'network', 'stat']),
  post_metrics: unitFact(['campaign_id', 'post_id'], { stagedUnique: true, prunedByDate: true }),
  post_stats: unitFact(['campaign_id', 'post_id', 'stat'], { stagedUnique: true, prunedByDate: true }),
  influencer_campaign_metrics: unitFact(['campaign_id', 'influencer_id']),
  influencer_sales: unitFact(['campaign_id', 'influencer_id', 'currency']),
  influencer_stats: unitFact(['campaign_id', 'influencer_id', 'stat']),
  influencer_profiles: allFact(['influencer_id']),
  influencer_network_profiles: allFact(['influencer_id', 'network']),
  influencer_tag_assignments: allFact(['campaign_id', 'influencer_id', 'tag_id'], { unitScoped: true }),

  // What the data checks found, staged and published with the run's facts.
  check_results: checkFact(['check_name']),
  check_failures: checkFact(['check_name', 'campaign_id', 'entity_id'], { unitScoped: true }),
  drift_observations: checkFact(['level', 'kind', 'name']),

  // The sink's tables.
  stream_documents: {
    kind: 'stream',
    keys: ['hook_id', 'document_id'],
    partitionColumn: STREAM_PARTITION_COLUMN,
    jsonColumns: ['document'],
  },
  stream_deliveries: { kind: 'stream', keys: ['delivery_id'], partitionColumn: STREAM_PARTITION_COLUMN },

  // Small tables rewritten whole.
  sync_runs: { kind: 'whole', keys: ['run_id'] },
  hooks: { kind: 'whole', keys: ['hook_id'] },
} as const satisfies Record<string, TableSpec>;

type Tables = typeof TABLES;
export type WarehouseTable = keyof Tables;
type TablesOfKind<K extends TableKind> = {
  [T in WarehouseTable]: Tables[T]['kind'] extends K ? T : never;
}[WarehouseTable];

export type FactTable = TablesOfKind<'fact'>;
export type EntityTable = TablesOfKind<'entity'>;
export type StreamTable = TablesOfKind<'stream'>;

/** A table's declaration; undefined for a name the warehouse does not have. */
export function tableSpec(name: string): TableSpec | undefined {
  return Object.hasOwn(TABLES, name) ? (TABLES as Record<string, TableSpec>)[name] : undefined;
}

/** The tables of some kinds, in declaration order. */
export function tablesOfKind<K extends TableKind>(...kinds: K[]): TablesOfKind<K>[] {
  return (Object.keys(TABLES) as WarehouseTable[]).filter((name) =>
    (kinds as TableKind[]).includes(TABLES[name].kind),
  ) as TablesOfKind<K>[];
}

export const FACT_TABLES: readonly FactTable[] = tablesOfKind('fact');
export const STREAM_TABLES: readonly StreamTable[] = tablesOfKind('stream');

/** Tables cleared per unit: with a segment column (cleared per segment) or without (the 'all' unit). */
export const UNIT_TABLES = (Object.keys(TABLES) as WarehouseTable[]).filter(
  (name) => (TABLES[name] as TableSpec).unitScoped,
);
