/**
 * Arbitraries of the bad input issue 38 lists, as JSON text the API or a sender could send:
 * strings with every kind of code point (lone surrogates, U+0000, U+FFFF, astral, quotes and
 * backslashes), extreme numbers (±0, 1e308, 5e-324, 2^53±1, integer literals past BIGINT, 1e400),
 * numeric strings that are not decimal numbers (NaN, hex, exponents, blanks), and nesting deep
 * or shallow. Values are built as text so a literal reaches the parser as it was written.
 */
import fc from 'fast-check';

/** One UTF-16 code unit or pair: the awkward ones often, then any code point, surrogates alone included. */
const codeUnits = fc.oneof(
  fc.constantFrom(
    '\ud800',
    '\udbff',
    '\udc00',
    '\udfff',
    '\u0000',
    '\uffff',
    '\ufffe',
    '\ufffd',
    '\ud83d\ude00',
    '\u{10ffff}',
    '\u2028',
    '\u007f',
    '"',
    '\\',
    '\n',
    '/',
    ' ',
    'a',
    'é',
  ),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/** A string of any code units, lone surrogates included (JSON.parse accepts their escapes). */
export const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: codeUnits, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: codeUnits, minLength: 40, maxLength: 200 }) },
);

/** Number literals at the edges: what JSON.parse would round, overflow or lose. */
export const numberLiteral = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '0.0',
    '1e308',
    '-1e308',
    '1.7976931348623157e308',
    '5e-324',
    '-5e-324',
    '1e-400',
    '1e400',
    '-1e400',
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '123456789012345678901234567890',
    '1e17',
    '1E+2',
    '47177.5',
    '374144.25',
    '12.0',
    '1.0000000000000001',
    '-1e-400',
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
);

/** Strings a number column may be sent: decimal or not, blank, spelled out. */
export const numericString = fc.oneof(
  fc.constantFrom(
    'NaN',
    'nan',
    'Infinity',
    '-Infinity',
    'n/a',
    '',
    ' ',
    '0x1F',
    '0b101',
    '0o17',
    '1_000',
    '1e',
    '.5',
    '5.',
    '+5',
    ' 12 ',
    '\u00a012',
    '１２',
    '1e3',
    '12.0',
    '-0',
    '9007199254740993',
    '99999999999999999999999',
    '1e400',
    '00012',
  ),
  numberLiteral,
);

/** Dates and timestamps as sent: good, out of Date's range, six-digit years, not dates at all. */
export const dateLike = fc.oneof(
  fc.constantFrom(
    '"2026-11-20"',
    '"2026-11-20T08:00:00Z"',
    '"2026-11-20T08:00:00.123456789+05:30"',
    '"2026-02-30"',
    '"0000-01-01"',
    '"9999-12-31T23:59:59.999Z"',
    '"+275760-09-13T00:00:00Z"',
    '"-000001-01-01T00:00:00Z"',
    '"+010000-01-01T00:00:00Z"',
    '"yesterday"',
    '8640000000000000',
    '-8640000000000000',
    '253402300800000',
    '-62167219200001',
  ),
  fc.date({ noInvalidDate: true }).map((d) => JSON.stringify(d.toISOString())),
  fc.integer({ min: -8.64e15, max: 8.64e15 }).map(String),
);

/** A JSON string literal: JSON.stringify writes lone surrogates as escapes, as a sender's encoder would. */
export const stringText = anyString.map((s) => JSON.stringify(s));

/** Any JSON scalar as text. */
export const scalarText = fc.oneof(
  { weight: 3, arbitrary: stringText },
  { weight: 3, arbitrary: numberLiteral },
  { weight: 2, arbitrary: numericString.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null') },
);

/** Arbitrary JSON text, a few levels deep, with weird keys (`__proto__` among them). */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>(
  (tie) => ({
    value: fc.oneof({ depthSize: 'small' }, scalarText, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    object: fc
      .array(fc.tuple(fc.oneof(anyString, fc.constantFrom('__proto__', 'constructor', 'id')), tie('value')), {
        maxLength: 4,
      })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  }),
).value;

/** `depth` arrays or objects inside one another around a scalar. */
export function nestedText(depth: number, kind: 'array' | 'object', inner = '1'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

/** Nesting up to `max` deep (arrays or objects), often near the edge. */
export function deepText(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min, max }), fc.constantFrom<'array' | 'object'>('array', 'object'), scalarText)
    .map(([depth, kind, inner]) => nestedText(depth, kind, inner));
}
