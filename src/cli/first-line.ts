/** The first line of what was thrown, whatever it is (an Error, a string, null), for a one-line message. */
export function firstLine(thrown: unknown): string {
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  return text.split('\n')[0] ?? '';
}
