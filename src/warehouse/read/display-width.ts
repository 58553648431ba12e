/**
 * Text as a terminal shows it: how many columns it takes (a CJK character or an emoji takes
 * two, a combining accent none), cut to a number of columns with an ellipsis, and with its
 * control characters shown escaped rather than sent to the terminal (a value the API sent may
 * hold a newline, which would break a table's line, or an escape sequence, which the terminal
 * would obey).
 */

const segmenter = new Intl.Segmenter();

/** Printable ASCII only: one column per character, the common case. */
const PLAIN = /^[\x20-\x7e]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const ESCAPED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** A grapheme that takes no column: combining marks, format characters (zero-width space, joiners). */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]+$/u;
const EMOJI = /\p{Extended_Pictographic}/u;

/** East Asian Wide and Fullwidth ranges (UAX #11), and the emoji blocks shown two columns wide. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

/**
 * `text` with each control character written as an escape: `\n`, `\t`, `\u001b`. With `lines`,
 * its line breaks stay (a query plan, a text of several lines, reads line by line): `\r\n`
 * becomes `\n`, and a last one is dropped.
 */
export function terminalText(text: string, lines = false): string {
  const source = lines ? text.replaceAll('\r\n', '\n').replace(/\n$/, '') : text;
  return source.replace(CONTROL, (c) =>
    lines && c === '\n' ? c : (ESCAPED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/** The columns `text` takes in a terminal (its control characters already escaped). */
export function displayWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}

/**
 * `text` cut to at most `width` columns, ending in `…` when it was cut; `cut` says whether it
 * was. A width below 1 leaves only the ellipsis.
 */
export function fitWidth(text: string, width: number): { text: string; cut: boolean } {
  if (displayWidth(text) <= width) return { text, cut: false };
  const room = Math.max(0, width - 1);
  if (PLAIN.test(text)) return { text: `${text.slice(0, room)}…`, cut: true };
  let kept = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > room) break;
    kept += segment;
    used += w;
  }
  return { text: `${kept}…`, cut: true };
}

/** `text` padded with spaces to `width` columns, on the right (or on the left: `right`). */
export function padWidth(text: string, width: number, right = false): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? fill + text : text + fill;
}

function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  const code = grapheme.codePointAt(0) ?? 0;
  if (code < 0x1100) return 1;
  // An emoji that asks for its picture (U+FE0F), as ❤️ does, takes two columns.
  if (grapheme.includes('\ufe0f') && EMOJI.test(grapheme)) return 2;
  for (const [from, to] of WIDE) {
    if (code < from) return 1;
    if (code <= to) return 2;
  }
  return 1;
}
