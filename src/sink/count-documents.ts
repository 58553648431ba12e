/** Number of documents of a verified push body, or why it is refused (400). */
export function countDocuments(body: Buffer): number | 'invalid_json' | 'no_documents' {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'invalid_json';
  }
  const documents = (parsed as { documents?: unknown } | null)?.documents;
  return Array.isArray(documents) ? documents.length : 'no_documents';
}
