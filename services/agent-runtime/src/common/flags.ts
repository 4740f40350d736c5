/** A query flag as the official client sends it: "1"/"0" or "true"/"false". */
export function flag(value: unknown): boolean {
  return value === true || value === "1" || value === "true";
}
