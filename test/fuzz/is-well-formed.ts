/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** String.prototype.isWellFormed (ES2024, past this project's lib), independent of the code under test. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
