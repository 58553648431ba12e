const { runLoadBench } = await import('./bench/load.js');
await runLoadBench(process.argv.slice(2));
