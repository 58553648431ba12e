/**
 * JSON that keeps every integer exact. JSON.parse turns an integer literal beyond 2^53 into the
 * nearest double (9007199254740993 becomes 9007199254740992), silently. Here such a literal
 * becomes a `bigint` holding its exact value, and stringifyExact writes it back digit for digit.
 * Every other number is what JSON.parse gives (a double), so code reading the value meets a
 * `bigint` only where a double could not have held the integer.
 *
 * The common text has no such literal, and takes JSON.parse as before: one pass over the text
 * (scan-json.ts) finds whether it holds a run of 16 digits or more outside strings (an integer
 * of 15 digits always fits a double); only such a text goes through the slower exact parser
 * (lossless-json). The same pass bounds the nesting depth (json-depth.ts says why), before any
 * parser runs. A literal with a fraction or an exponent stays a double, as
 * JSON.parse reads it: toCount refuses one past 2^53, since which integer it meant is lost.
 */
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { JsonTooDeepError, MAX_JSON_DEPTH } from './json-depth.js';
import { LONG_INTEGER, scanJsonText, TOO_DEEP } from './scan-json.js';

/**
 * Parses a JSON text as JSON.parse does, but an integer literal a double cannot hold becomes a
 * bigint of its exact value. Throws JsonTooDeepError (naming `where`) when the text nests
 * deeper than `maxDepth`, and SyntaxError when it is not JSON.
 */
export function parseJsonExact(text: string, where = 'JSON text', maxDepth = MAX_JSON_DEPTH): unknown {
  const scan = scanJsonText(text, maxDepth);
  if (scan & TOO_DEEP) throw new JsonTooDeepError(where, maxDepth);
  if (!(scan & LONG_INTEGER)) return JSON.parse(text);
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
