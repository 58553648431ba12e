/**
 * Child process of the history benchmark (askAsAnalyst): times the questions of the targets
 * given as JSON in argv[2] with timeQuestions and prints the results as one JSON line. It
 * loads DuckDB with DuckDB's own allocator setting, as an analyst's client does, not the
 * CLI's sync setting the benchmark process runs with.
 */
import { type QuestionTarget, timeQuestions } from './history-questions.js';

const targets = JSON.parse(process.argv[2] ?? '[]') as QuestionTarget[];
process.stdout.write(`${JSON.stringify(await timeQuestions(targets))}\n`);
