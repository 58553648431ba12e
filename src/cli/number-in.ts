import { InvalidArgumentError } from 'commander';
import { PORT, parseBounded } from '../util/bounded-number.js';

/**
 * A commander parser of a flag's value as a number within bounds (see bounded-number.ts):
 * commander names the flag and the value it refused, in one line.
 */
export function numberIn(min: number, max: number, integer = false) {
  return (raw: string): number => {
    const value = parseBounded(raw, { min, max, integer });
    if (value === undefined)
      throw new InvalidArgumentError(`expected ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    return value;
  };
}

/** A port flag (0: any free port). */
export const portNumber = numberIn(PORT.min, PORT.max, PORT.integer);
