/**
 * One line for the first problem zod finds in a setting: the path, and what would have been
 * right (the allowed values of a choice, the nearest known key of a misspelt one), as commander
 * says "Did you mean" for a misspelt flag.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

export function explainIssue(schema: z.ZodType, issue: Issue, value: unknown): string {
  const branch = issue.code === 'invalid_union' ? branchTaken(issue.errors) : undefined;
  if (branch)
    return explainIssue(schema, { ...branch, path: [...issue.path, ...branch.path] } as Issue, value);
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return `${path ? `${path}: ` : ''}${messageOf(schema, issue, valueAt(value, issue.path))}`;
}

function messageOf(schema: z.ZodType, issue: Issue, value: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, issue.path);
    return issue.keys
      .map((key) => {
        const near = nearest(key, known);
        if (near) return `unknown key "${key}" (did you mean "${near}"?)`;
        return `unknown key "${key}"${known.length > 0 ? ` (the keys here: ${known.join(', ')})` : ''}`;
      })
      .join('; ');
  }
  const choices = choicesOf(issue);
  if (choices.length > 0 && typeof value !== 'object')
    return `${JSON.stringify(value)} is not one of ${choices.join(', ')}`;
  return issue.message;
}

/**
 * Of a union's branches, the one the value was meant for: the only one that did not fail on
 * the value's type itself (an object given to `"warn" | { mode, history }` fails inside the object).
 */
function branchTaken(branches: readonly (readonly Issue[])[]): Issue | undefined {
  const meant = branches.filter((issues) =>
    issues.every((i) => !(i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_value'))),
  );
  return meant.length === 1 ? meant[0]?.[0] : undefined;
}

/** The literal values a choice allows (an enum, or the enums among a union's options). */
function choicesOf(issue: Issue): string[] {
  if (issue.code === 'invalid_value') return issue.values.map(String);
  if (issue.code === 'invalid_union') return issue.errors.flat().flatMap(choicesOf);
  return [];
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path)
    at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/** The keys of the object schema at `path` (through optional, default, union and array wrappers). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const found = objectsAt(schema, path);
  return [...new Set(found.flatMap((object) => Object.keys(object.shape)))];
}

interface Def {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly element?: z.ZodType;
  readonly in?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
}

function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): { shape: Record<string, z.ZodType> }[] {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.innerType) return objectsAt(def.innerType, path);
  if (def.in) return objectsAt(def.in, path);
  if (def.options) return def.options.flatMap((option) => objectsAt(option, path));
  const [head, ...rest] = path;
  if (def.type === 'array' && def.element) return head === undefined ? [] : objectsAt(def.element, rest);
  if (def.type !== 'object' || !def.shape) return [];
  if (head === undefined) return [{ shape: def.shape }];
  const child = def.shape[String(head)];
  return child ? objectsAt(child, rest) : [];
}

/** The known name closest to a misspelt one, when it is close (at most a third of it changed). */
function nearest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Damerau-Levenshtein (optimal string alignment) distance. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
