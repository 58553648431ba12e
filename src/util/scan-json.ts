/**
 * One pass over a JSON text (a string, or its UTF-8 bytes) that finds, before any parser runs,
 * what the parsers cannot be trusted with: arrays and objects nested past a limit (json-depth.ts
 * says why), and a number literal with a run of UNSAFE_DIGITS digits or more, which JSON.parse
 * may round (parse-json-exact.ts). No recursion, no allocation; brackets and digits inside
 * strings (escaped quotes included) do not count. It does not validate: a text that is not JSON
 * is the parser's to refuse.
 */

/** Arrays and objects nest deeper than the limit (the scan stops at the first bracket past it). */
export const TOO_DEEP = 1;
/** A number has a run of UNSAFE_DIGITS digits or more before any decimal point. */
export const LONG_INTEGER = 2;

/** An integer literal of this many digits may pass 2^53 (9007199254740992 has 16). */
const UNSAFE_DIGITS = 16;

/** A run of fraction digits never counts toward UNSAFE_DIGITS. */
const IN_FRACTION = Number.NEGATIVE_INFINITY;

/** What the scan does with an ASCII code (a table: one load instead of a chain of comparisons). */
const OTHER = 0;
const DIGIT = 1;
const DOT = 2;
const QUOTE = 3;
const OPEN = 4;
const CLOSE = 5;
const KIND = new Uint8Array(128);
for (let code = 0x30; code <= 0x39; code++) KIND[code] = DIGIT;
KIND[0x2e] = DOT;
KIND[0x22] = QUOTE;
KIND[0x5b] = OPEN; // [
KIND[0x7b] = OPEN; // {
KIND[0x5d] = CLOSE; // ]
KIND[0x7d] = CLOSE; // }
const QUOTE_CODE = 0x22;
const BACKSLASH = 0x5c;

/**
 * TOO_DEEP and LONG_INTEGER, or-ed, for a JSON text: `{"a":[1]}` is 2 deep, a scalar 0.
 * scanJsonBytes is the same scan of UTF-8 bytes: the string and the bytes each get a loop of
 * their own, so that each loop stays one kind of access for the engine (one loop for both was
 * a fifth slower: bench/RESULTS.md).
 */
export function scanJsonText(text: string, maxDepth: number): number {
  let depth = 0;
  let digits = 0;
  let flags = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? KIND[code] : OTHER;
    if (kind === DIGIT) {
      if (++digits >= UNSAFE_DIGITS) flags |= LONG_INTEGER;
    } else if (kind === OTHER) {
      digits = 0;
    } else if (kind === DOT) {
      digits = IN_FRACTION;
    } else {
      digits = 0;
      if (kind === QUOTE) i = closingQuoteInText(text, i);
      else if (kind === OPEN) {
        if (++depth > maxDepth) return flags | TOO_DEEP;
      } else depth--;
    }
  }
  return flags;
}

/**
 * scanJsonText over a text's UTF-8 bytes. UTF-8's multi-byte sequences hold no byte below 0x80,
 * so it finds the same quotes, brackets and digits as in the text.
 */
export function scanJsonBytes(bytes: Uint8Array, maxDepth: number): number {
  let depth = 0;
  let digits = 0;
  let flags = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const code = bytes[i] as number;
    const kind = code < 128 ? KIND[code] : OTHER;
    if (kind === DIGIT) {
      if (++digits >= UNSAFE_DIGITS) flags |= LONG_INTEGER;
    } else if (kind === OTHER) {
      digits = 0;
    } else if (kind === DOT) {
      digits = IN_FRACTION;
    } else {
      digits = 0;
      if (kind === QUOTE) i = closingQuoteInBytes(bytes, i);
      else if (kind === OPEN) {
        if (++depth > maxDepth) return flags | TOO_DEEP;
      } else depth--;
    }
  }
  return flags;
}

/**
 * Index of the quote closing the string opened at `open` (the end when it is never closed):
 * the next quote not escaped, i.e. preceded by an even run of backslashes.
 */
function closingQuoteInText(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** closingQuoteInText over UTF-8 bytes. */
function closingQuoteInBytes(bytes: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = bytes.indexOf(QUOTE_CODE, at + 1);
    if (at < 0) return bytes.length;
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
