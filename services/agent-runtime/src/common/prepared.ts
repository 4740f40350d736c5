import { createHash } from "node:crypto";
import type pg from "pg";

const names = new Map<string, string>();

/**
 * A named (prepared) statement for a statement text: PostgreSQL parses and plans it once per
 * connection instead of on every call. The name is derived from the text, so two texts never
 * share one.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (!name) {
    name = `lgp_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    if (names.size < 1000) names.set(text, name);
  }
  return { name, text, values };
}
