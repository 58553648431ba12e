/** The first line of an error's message (DuckDB's go on with context lines); what one-line errors show. */
export function firstLine(error: unknown): string {
  const message = (error as Error | undefined)?.message;
  return (typeof message === 'string' ? message : String(error)).split('\n')[0]!;
}
