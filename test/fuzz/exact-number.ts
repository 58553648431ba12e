/** The exact value of a JSON number literal, independent of the code under test. */

const LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The integer a literal writes exactly ("12.0" and "1e3" included), else undefined (a fraction, not a literal). */
export function exactInteger(literal: string): bigint | undefined {
  const match = LITERAL.exec(literal.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  // Past this a literal is refused for its range anyway; keep the arithmetic small.
  if (Math.abs(exponent) > 400) return undefined;
  let digits = `${whole}${fraction}`;
  let scale = exponent - fraction.length;
  while (scale < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale++;
  }
  if (scale < 0) return BigInt(digits) === 0n ? 0n : undefined;
  const value = BigInt(digits || '0') * 10n ** BigInt(scale);
  return sign === '-' ? -value : value;
}
