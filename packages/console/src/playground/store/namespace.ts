/**
 * Store namespaces as the console shows and reads them: labels joined by dots ("notes.ada"), as
 * the API's dotted form has it (a label holds no dot). Empty labels are dropped.
 */
export const parseNamespace = (text: string): string[] =>
  text
    .split(".")
    .map((label) => label.trim())
    .filter(Boolean);

export const formatNamespace = (namespace: readonly string[]): string => namespace.join(".");

/** A JSON object typed in a field, or a sentence saying what is wrong with it (empty text: `{}`). */
export function parseObject(label: string, text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error(`${label} must be a JSON object.`);
  return value as Record<string, unknown>;
}
