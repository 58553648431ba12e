/**
 * Which folder of src/ may import which (npm run lint:deps, run by npm test). Type-only imports
 * count (tsPreCompilationDeps): a loop through types is a loop all the same.
 *
 * The layers, lowest first. A folder imports only from its own layer's folder and the layers
 * below it, never from a layer above nor from another folder of its own layer:
 *
 *   contracts   the rows, the table registry, what a check found: imports nothing of ours
 *   util        small helpers (errors, logging, bounded numbers, JSON depth, hosts)
 *   api state   the analytics API's client; the SQLite state and inbox databases
 *   normalize   API records in, rows out (pure)
 *   warehouse   DuckDB: staging, the Parquet lake, the catalog, readers, checks. Inside, lowest
 *               first: warehouse/duckdb/ (opening DuckDB, paths, migrations, views, the appender),
 *               then warehouse/lake/ (the Parquet lake and its catalog), then the rest (staging,
 *               publish-*, read/, checks/), which alone may import the lake (by lake/index.ts)
 *   pipelines report
 *               the per-endpoint pipelines; the HTML report
 *   config      the resolved settings of every command, and each feature's config schema
 *   extract remote
 *               a sync run; the remote Iceberg lake
 *   notify      notifications about syncs and the sink
 *   sink        the HTTP receiver of pushed documents and its loader
 *   service     the long-running service (schedule, sink, notifications)
 *   simulator   the API simulator (the demo and the simulate command run it)
 *   cli         the commands (the top: nothing imports them)
 *
 * Any loop between two modules fails too (no-circular), naming the files on it.
 */
const LAYERS = [
  ['contracts'],
  ['util'],
  ['api', 'state'],
  ['normalize'],
  ['warehouse'],
  ['pipelines', 'report'],
  ['config'],
  ['extract', 'remote'],
  ['notify'],
  ['sink'],
  ['service'],
  ['simulator'],
  ['cli'],
];

const where = (folder) => (folder === 'pipelines' ? '^pipelines/' : `^src/${folder}/`);
const anyOf = (folders) => `(${folders.map(where).join('|')})`;

const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  return layer.flatMap((folder) => {
    const rules = [];
    const peers = layer.filter((other) => other !== folder);
    const forbidden = [...above, ...peers];
    if (forbidden.length > 0) {
      rules.push({
        name: `layer-${folder}`,
        comment: `${folder} may import only from the layers below it (.dependency-cruiser.cjs lists them).`,
        severity: 'error',
        from: { path: where(folder) },
        to: { path: anyOf(forbidden), dependencyTypesNot: ['npm', 'core'] },
      });
    }
    return rules;
  });
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules must not import each other, directly or around a loop (types count too).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'warehouse-duckdb-lowest',
      comment: 'warehouse/duckdb/ is the lowest room of the warehouse: it imports no other part of it.',
      severity: 'error',
      from: { path: '^src/warehouse/duckdb/' },
      to: { path: '^src/warehouse/', pathNot: '^src/warehouse/duckdb/' },
    },
    {
      name: 'lake-below-warehouse',
      comment: 'The lake imports from the warehouse only warehouse/duckdb/, never the warehouse above it.',
      severity: 'error',
      from: { path: '^src/warehouse/lake/' },
      to: { path: '^src/warehouse/', pathNot: '^src/warehouse/(lake|duckdb)/' },
    },
    {
      name: 'lake-door',
      comment: 'Outside src/warehouse/lake/, the program imports the lake from lake/index.ts only.',
      severity: 'error',
      from: { path: '^(src|pipelines)/', pathNot: '^src/warehouse/lake/' },
      to: { path: '^src/warehouse/lake/', pathNot: '^src/warehouse/lake/index\\.ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    includeOnly: '^(src|pipelines)/',
  },
};
