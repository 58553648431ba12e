/** The table registry lives in src/contracts/table-registry.ts (it imports nothing of ours); this path is kept for the warehouse's own files. */
export * from '../contracts/table-registry.js';
