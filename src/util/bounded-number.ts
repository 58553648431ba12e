/**
 * The one check of a numeric setting against its bounds (a port, an interval, a timeout, a
 * count), shared by the command lines' flags (`sink`, `serve`, `simulate`, ...) and by the
 * sink's options (sink-options.ts), so each says the same thing of the same value.
 */

export interface Bounds {
  readonly min: number;
  /** None when absent (the value must still be finite). */
  readonly max?: number;
  /** Whole numbers only (ports, counts, bytes, milliseconds). */
  readonly integer?: boolean;
}

/** A TCP port to listen on; 0 asks the system for any free one. */
export const PORT = { min: 0, max: 65_535, integer: true } as const satisfies Bounds;

/** Whether `value` is a number within `bounds` (NaN and the infinities never are). */
export function withinBounds(value: number, bounds: Bounds): boolean {
  return (
    Number.isFinite(value) &&
    value >= bounds.min &&
    value <= (bounds.max ?? Number.POSITIVE_INFINITY) &&
    (!bounds.integer || Number.isInteger(value))
  );
}

/**
 * A flag's text as a number within `bounds`, or undefined when it is not one. Blank text is
 * no number: `Number('')` is 0, which would make `--port ''` mean "any free port".
 */
export function parseBounded(text: string, bounds: Bounds): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return withinBounds(value, bounds) ? value : undefined;
}
