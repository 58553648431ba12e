/** A header's value in a request or a reply, the first one when it was sent more than once. */
export function headerOf(
  message: { readonly headers: Record<string, string | string[] | undefined> },
  name: string,
): string | undefined {
  const value = message.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
