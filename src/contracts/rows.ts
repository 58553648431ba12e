/**
 * Contract between normalization (pure: API records in, rows out) and the warehouse
 * (which appends rows to the DuckDB tables of sql/warehouse/migrations, each declared once
 * in src/contracts/table-registry.ts). A row is keyed by column name; values are plain JS
 * values, converted to the column's DuckDB type on load: dates and timestamps as ISO-8601
 * strings, counts as numbers (integers; beyond 2^53 as their exact decimal text, which
 * staging converts to BIGINT), rates and money as numbers, JSON columns as already-serialized
 * JSON text, missing and refused values as null.
 */
import type { EntityTable, FactTable } from './table-registry.js';

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

/** The tables normalization produces rows for (declared in table-registry.ts). */
export type TableName = FactTable | EntityTable;

/** Rows produced from one API response, per table. */
export type TableRows = Partial<Record<TableName, Row[]>>;
