import { describe, expect, it } from 'vitest';
import { takeRepairedText } from '../../src/warehouse/duckdb/text-repairs.js';
import {
  wellFormed,
  wellFormedConverter,
  wellFormedJson,
} from '../../src/warehouse/duckdb/well-formed-text.js';

const FFFD = '\uFFFD';

describe('wellFormed', () => {
  it('replaces lone surrogates (high, low, at the end) and keeps pairs and other text', () => {
    expect(wellFormed('a\ud800b')).toBe(`a${FFFD}b`);
    expect(wellFormed('\udfffx')).toBe(`${FFFD}x`);
    expect(wellFormed('end\ud83d')).toBe(`end${FFFD}`);
    expect(wellFormed('\ud83d\ude00 é ✓')).toBe('\ud83d\ude00 é ✓');
    const ascii = 'plain';
    expect(wellFormed(ascii)).toBe(ascii);
  });
});

describe('wellFormedJson', () => {
  it('replaces the escapes of lone surrogates, in values and keys, and keeps escaped pairs', () => {
    const json = JSON.stringify({ 'k\ud800': 'v\udfff', tail: 'x\ud83d', pair: '\ud83d\ude00' });
    expect(json).toContain('\\ud800');
    const repaired = wellFormedJson(json);
    expect(JSON.parse(repaired)).toEqual({
      [`k${FFFD}`]: `v${FFFD}`,
      tail: `x${FFFD}`,
      pair: '\ud83d\ude00',
    });
    expect(wellFormedJson('{"pair":"\\uD83D\\uDE00","upper":"\\uD800"}')).toBe(
      `{"pair":"\\uD83D\\uDE00","upper":"${FFFD}"}`,
    );
  });

  it('leaves an escaped backslash followed by "ud800" alone: that is text, not an escape', () => {
    const json = JSON.stringify({ path: 'C:\\ud800' });
    expect(json).toBe('{"path":"C:\\\\ud800"}');
    expect(wellFormedJson(json)).toBe(json);
    // An escaped backslash, then a real lone escape.
    expect(wellFormedJson('"\\\\\\ud800"')).toBe(`"\\\\${FFFD}"`);
  });

  it('returns the same string when there is nothing to repair', () => {
    const json = JSON.stringify({ a: 'line\nbreak \u0001', b: [1, 2] });
    expect(wellFormedJson(json)).toBe(json);
  });

  it('repairs raw lone surrogates in JSON text too', () => {
    expect(wellFormedJson('{"a":"\ud800"}')).toBe(`{"a":"${FFFD}"}`);
  });
});

describe('wellFormedConverter', () => {
  it('counts each repaired value once against its table and column', () => {
    takeRepairedText();
    const name = wellFormedConverter('campaigns', 'name', false);
    const raw = wellFormedConverter('campaigns', 'raw', true);
    expect(name('ok')).toBe('ok');
    expect(name(12)).toBe('12');
    expect(name(null)).toBeNull();
    expect(name('a\ud800\ud800')).toBe(`a${FFFD}${FFFD}`);
    expect(raw(JSON.stringify({ n: 'x\ud800' }))).toBe(`{"n":"x${FFFD}"}`);
    expect(raw(JSON.stringify({ n: 'x\udfff' }))).toBe(`{"n":"x${FFFD}"}`);
    expect(takeRepairedText()).toEqual({ values: 3, fields: { 'campaigns.name': 1, 'campaigns.raw': 2 } });
    expect(takeRepairedText()).toBeUndefined();
  });
});
