import { describe, expect, it } from 'vitest';
import { displayWidth, fitWidth, padWidth, terminalText } from '../../src/warehouse/read/display-width.js';

describe('display width', () => {
  it('counts the columns a terminal gives each character', () => {
    expect(displayWidth('campaign')).toBe(8);
    expect(displayWidth('日本語')).toBe(6); // wide
    expect(displayWidth('e\u0301te\u0301')).toBe(3); // combining accents take none
    expect(displayWidth('a\u200bb')).toBe(2); // a zero-width space
    expect(displayWidth('👍🏽 ok')).toBe(5); // an emoji and its skin tone: one picture, two columns
    expect(displayWidth('❤️')).toBe(2);
  });

  it('cuts to a width with an ellipsis, never splitting a wide character or a grapheme', () => {
    expect(fitWidth('short', 10)).toEqual({ text: 'short', cut: false });
    expect(fitWidth('campaign name', 8)).toEqual({ text: 'campaig…', cut: true });
    expect(fitWidth('日本語テキスト', 6)).toEqual({ text: '日本…', cut: true });
    expect(fitWidth('e\u0301e\u0301e\u0301e\u0301', 3)).toEqual({ text: 'e\u0301e\u0301…', cut: true });
    expect(padWidth('日本', 6)).toBe('日本  ');
    expect(padWidth('7', 3, true)).toBe('  7');
  });

  it('shows control characters escaped, never sends them to the terminal', () => {
    expect(terminalText('a\nb\tc\r')).toBe('a\\nb\\tc\\r');
    expect(terminalText('\u001b[31mred')).toBe('\\u001b[31mred');
    expect(terminalText('\u0085next')).toBe('\\u0085next');
    // Kept as lines (a table cell of several lines): \r\n as \n, the last one dropped.
    expect(terminalText('plan\r\n│ a\t│\n', true)).toBe('plan\n│ a\\t│');
  });
});
