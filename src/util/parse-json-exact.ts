/**
 * JSON that keeps every integer exact. JSON.parse turns an integer literal beyond 2^53 into the
 * nearest double (9007199254740993 becomes 9007199254740992), silently. Here such a literal
 * becomes a `bigint` holding its exact value, and stringifyExact writes it back digit for digit.
 * Every other number is what JSON.parse gives (a double), so code reading the value meets a
 * `bigint` only where a double could not have held the integer.
 *
 * The common text has no such literal, and takes JSON.parse as before: one pass over the text
 * (skipping strings) finds whether it holds a run of 16 digits or more outside strings (an
 * integer of 15 digits always fits a double); only such a text goes through the slower exact
 * parser (lossless-json). The same pass bounds the nesting depth (json-depth.ts says why),
 * before any parser runs. A literal with a fraction or an exponent stays a double, as
 * JSON.parse reads it: toCount refuses one past 2^53, since which integer it meant is lost.
 */
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { JsonTooDeepError, MAX_JSON_DEPTH } from './json-depth.js';

/** An integer literal of this many digits may pass 2^53 (9007199254740992 has 16). */
const UNSAFE_DIGITS = 16;

const TOO_DEEP = 1;
const NEEDS_EXACT = 2;
/** A run of fraction digits never counts toward UNSAFE_DIGITS. */
const IN_FRACTION = Number.NEGATIVE_INFINITY;

/** What the scan does with an ASCII character, by code (a table: one load instead of a chain of comparisons). */
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
const BACKSLASH = 0x5c;

/**
 * Parses a JSON text as JSON.parse does, but an integer literal a double cannot hold becomes a
 * bigint of its exact value. Throws JsonTooDeepError (naming `where`) when the text nests
 * deeper than `maxDepth`, and SyntaxError when it is not JSON.
 */
export function parseJsonExact(text: string, where = 'JSON text', maxDepth = MAX_JSON_DEPTH): unknown {
  const scan = scanJson(text, maxDepth);
  if (scan & TOO_DEEP) throw new JsonTooDeepError(where, maxDepth);
  if (!(scan & NEEDS_EXACT)) return JSON.parse(text);
  // JSON.parse keeps the last of repeated keys; lossless-json would refuse them.
  return parseLossless(text, null, {
    parseNumber: exactNumber,
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

/** A number literal as JSON.parse reads it, unless it is an integer a double cannot hold. */
function exactNumber(literal: string): number | bigint {
  const number = Number(literal);
  if (Number.isSafeInteger(number) || !/^-?\d+$/.test(literal)) return number;
  return BigInt(literal);
}

/**
 * JSON.stringify, but a bigint is written as its digits (JSON.stringify refuses bigints); `space`
 * indents as JSON.stringify's does. Throws JsonTooDeepError when the value nests too deep for
 * the recursive stringifier.
 */
export function stringifyExact(value: unknown, where = 'value', space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    if (error instanceof RangeError) throw new JsonTooDeepError(where, MAX_JSON_DEPTH, { cause: error });
    if (!(error instanceof TypeError)) throw error;
  }
  // A bigint (the rare value parseJsonExact made): the slower stringifier that writes it.
  try {
    return stringifyLossless(value, null, space) ?? 'null';
  } catch (error) {
    if (error instanceof RangeError) throw new JsonTooDeepError(where, MAX_JSON_DEPTH, { cause: error });
    throw error;
  }
}

/**
 * One pass over a JSON text: TOO_DEEP when arrays and objects nest deeper than `maxDepth`,
 * NEEDS_EXACT when a number outside strings has a run of UNSAFE_DIGITS digits (not counting
 * those after a decimal point). Brackets and digits inside strings do not count.
 */
function scanJson(text: string, maxDepth: number): number {
  let depth = 0;
  let digits = 0;
  let flags = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? KIND[code] : OTHER;
    if (kind === DIGIT) {
      if (++digits >= UNSAFE_DIGITS) flags |= NEEDS_EXACT;
    } else if (kind === OTHER) {
      digits = 0;
    } else if (kind === DOT) {
      digits = IN_FRACTION;
    } else {
      digits = 0;
      if (kind === QUOTE) i = closingQuote(text, i);
      else if (kind === OPEN) {
        if (++depth > maxDepth) return flags | TOO_DEEP;
      } else depth--;
    }
  }
  return flags;
}

/** Index of the quote closing the string opened at `open` (the end when it is never closed). */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
