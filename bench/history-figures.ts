/** The history benchmark's figures: the questions' times held to the issue's targets, and the readable table. */
import type { PublishCosts } from './history-publish.js';
import type { Question } from './history-questions.js';

export type Figures = Record<string, number | string | boolean>;

/** At the long history, a question takes at most this times its time at the short one... */
export const FLAT_RATIO = 1.25;
/** ...or under this many ms. */
export const FLAT_FLOOR_MS = 25;
/** The README's examples and the analyst views answer under this many ms. */
export const ANSWER_MS = 100;
/** A whole-history question takes at most this times the same on native tables. */
export const NATIVE_RATIO = 2;
/** A publish at the long history costs at most this times its cost at 1 day (time and bytes). */
export const PUBLISH_RATIO = 1.2;
/** The data directory's files, after retention, at most this times the lake's live files. */
export const DATA_DIR_RATIO = 1.3;

export const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const ms = (value: number) => Math.round(value * 10) / 10;

export interface QuestionTimes {
  short: Record<string, number>;
  long: Record<string, number>;
  native: Record<string, number>;
}

/** Each question's figures (`q_<name>_<days>_ms`, `_ratio`, `_ok`...) and the names of the flags. */
export function questionFigures(
  questions: Record<string, Question>,
  times: QuestionTimes,
  shortDays: number,
  days: number,
): { figures: Figures; flags: string[] } {
  const figures: Figures = {};
  const flags: string[] = [];
  for (const [name, question] of Object.entries(questions)) {
    const short = times.short[name]!;
    const long = times.long[name]!;
    const key = `q_${name}`;
    figures[`${key}_${shortDays}_ms`] = ms(short);
    figures[`${key}_${days}_ms`] = ms(long);
    figures[`${key}_ratio`] = ratio(long, short);
    if (!question.wholeHistory || question.flat) {
      figures[`${key}_ok`] = long <= FLAT_RATIO * short || long < FLAT_FLOOR_MS;
      flags.push(`${key}_ok`);
    }
    if (question.under100) {
      figures[`${key}_under_${ANSWER_MS}_ok`] = long < ANSWER_MS;
      flags.push(`${key}_under_${ANSWER_MS}_ok`);
    }
    const native = times.native[name];
    if (native !== undefined) {
      figures[`${key}_native_ms`] = ms(native);
      figures[`${key}_native_ratio`] = ratio(long, native);
      figures[`${key}_native_ok`] = long <= NATIVE_RATIO * native;
      flags.push(`${key}_native_ok`);
    }
  }
  return { figures, flags };
}

/** The publishes at the long history against the same at 1 day of history. */
export function publishFigures(
  one: PublishCosts,
  many: PublishCosts,
  short: PublishCosts,
  shortDays: number,
): Figures {
  const figures: Figures = {
    sync_publish_1d_ms: Math.round(one.syncMs),
    [`sync_publish_${shortDays}d_ms`]: Math.round(short.syncMs),
    sync_publish_nd_ms: Math.round(many.syncMs),
    sync_publish_time_ratio: ratio(many.syncMs, one.syncMs),
    sync_publish_1d_mb: Math.round(one.syncBytes / 1e5) / 10,
    sync_publish_nd_mb: Math.round(many.syncBytes / 1e5) / 10,
    sync_publish_bytes_ratio: ratio(many.syncBytes, one.syncBytes),
    sink_publish_1d_ms: Math.round(one.sinkMs),
    [`sink_publish_${shortDays}d_ms`]: Math.round(short.sinkMs),
    sink_publish_nd_ms: Math.round(many.sinkMs),
    sink_publish_time_ratio: ratio(many.sinkMs, one.sinkMs),
    sink_publish_1d_kb: Math.round(one.sinkBytes / 1e3),
    sink_publish_nd_kb: Math.round(many.sinkBytes / 1e3),
    sink_publish_bytes_ratio: ratio(many.sinkBytes, one.sinkBytes),
  };
  for (const kind of ['sync', 'sink'])
    for (const what of ['time', 'bytes'])
      figures[`${kind}_publish_${what}_ok`] =
        (figures[`${kind}_publish_${what}_ratio`] as number) <= PUBLISH_RATIO;
  return figures;
}

/** The questions as a table (stderr): both lengths, their ratio, native, the targets missed. */
export function questionTable(
  questions: Record<string, Question>,
  figures: Figures,
  shortDays: number,
  days: number,
): string {
  const rows = [
    ['question', `${shortDays} d ms`, `${days} d ms`, 'ratio', 'native ms', 'vs native', 'missed'],
  ];
  for (const [name, question] of Object.entries(questions)) {
    const key = `q_${name}`;
    const missed = Object.keys(figures)
      .filter((k) => k.startsWith(`${key}_`) && k.endsWith('_ok') && figures[k] === false)
      .map((k) => k.slice(key.length + 1, -3) || 'flat');
    const cell = (k: string) => (figures[k] === undefined ? '-' : String(figures[k]));
    rows.push([
      name,
      cell(`${key}_${shortDays}_ms`),
      cell(`${key}_${days}_ms`),
      cell(`${key}_ratio`),
      question.wholeHistory && figures[`${key}_native_ms`] === undefined
        ? 'not copied'
        : cell(`${key}_native_ms`),
      cell(`${key}_native_ratio`),
      missed.join(', ') || '-',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '))
    .join('\n');
}
