import { describe, expect, it } from 'vitest';
import { LONG_INTEGER, scanJsonBytes, scanJsonText, TOO_DEEP } from '../../src/util/scan-json.js';

/** The scan of a text, checked equal to the scan of its UTF-8 bytes. */
function scan(text: string, maxDepth = 8): number {
  const flags = scanJsonText(text, maxDepth);
  expect(scanJsonBytes(Buffer.from(text, 'utf8'), maxDepth), text).toBe(flags);
  return flags;
}

describe('scanJsonText and scanJsonBytes', () => {
  it('flag an integer run of 16 digits or more outside strings, not a fraction or 15 digits', () => {
    expect(scan('{"n":9007199254740993}')).toBe(LONG_INTEGER);
    expect(scan('[-1234567890123456]')).toBe(LONG_INTEGER);
    expect(scan('[123456789012345, 0.12345678901234567, 1e300]')).toBe(0);
    expect(scan('{"id":"72345678901234567890","é":"ü12345678901234567"}')).toBe(0);
    expect(scan('["a\\"12345678901234567", "\\\\"]')).toBe(0);
  });

  it('flag nesting past the limit, with what was seen before it', () => {
    expect(scan('[[[]]]', 3)).toBe(0);
    expect(scan('[[[[]]]]', 3)).toBe(TOO_DEEP);
    expect(scan('[12345678901234567,[[[]]]]', 3)).toBe(TOO_DEEP | LONG_INTEGER);
    expect(scan('["[[[[", "{{{{"]', 1)).toBe(0);
    expect(scan('["unterminated [[[[ 12345678901234567', 1)).toBe(0);
  });
});
