// A handler's filters, applied where rows are read: in SQL for threads, runs, assistants and crons
// (so a page or a count never holds another user's rows), in memory for one store item at hand.
import { Prisma } from "../generated/prisma/client";
import type { AuthFilters } from "./context";

/** The filter's value as JSON containment: `{key: value}` or, for `$contains`, `{key: [values]}`. */
function containment(key: string, condition: AuthFilters[string]): object {
  if (typeof condition === "string") return { [key]: condition };
  if (condition.$eq !== undefined) return { [key]: condition.$eq };
  if (condition.$contains !== undefined) {
    const values = Array.isArray(condition.$contains) ? condition.$contains : [condition.$contains];
    return { [key]: values };
  }
  return {};
}

/**
 * `column @> {...}` for each condition: a string equals (JSON containment of a scalar is equality),
 * `$contains` needs an array holding every value. The whole filter is one containment, so one GIN
 * index on the column serves it.
 */
export function filtersSql(column: Prisma.Sql, filters: AuthFilters | undefined): Prisma.Sql {
  if (!filters || !Object.keys(filters).length) return Prisma.sql`TRUE`;
  const document: Record<string, unknown> = {};
  const extra: Prisma.Sql[] = [];
  for (const [key, condition] of Object.entries(filters)) {
    const part = containment(key, condition);
    // Two conditions on one key (only possible by merging filters) cannot share one document.
    if (key in document) extra.push(Prisma.sql`${column} @> ${JSON.stringify(part)}::jsonb`);
    else Object.assign(document, part);
  }
  return Prisma.join([Prisma.sql`${column} @> ${JSON.stringify(document)}::jsonb`, ...extra], " AND ");
}

/** The same rule in memory, for a document already read (a store item and its namespace). */
export function matchesFilters(
  document: Record<string, unknown> | undefined,
  filters: AuthFilters | undefined,
): boolean {
  if (!filters) return true;
  for (const [key, condition] of Object.entries(filters)) {
    const actual = document?.[key];
    if (typeof condition === "string") {
      if (actual !== condition) return false;
    } else if (condition.$eq !== undefined) {
      if (actual !== condition.$eq) return false;
    } else if (condition.$contains !== undefined) {
      if (!Array.isArray(actual)) return false;
      const wanted = Array.isArray(condition.$contains) ? condition.$contains : [condition.$contains];
      if (!wanted.every((value) => actual.includes(value))) return false;
    }
  }
  return true;
}

/** Whether a handler's answer is a filter this runtime can apply (anything else is the handler's bug). */
export function isAuthFilters(value: unknown): value is AuthFilters {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((condition) => {
    if (typeof condition === "string") return true;
    if (typeof condition !== "object" || condition === null) return false;
    const { $eq, $contains, ...rest } = condition as Record<string, unknown>;
    if (Object.keys(rest).length) return false;
    if ($eq !== undefined && typeof $eq !== "string") return false;
    if ($contains !== undefined && typeof $contains !== "string" && !Array.isArray($contains)) return false;
    return $eq !== undefined || $contains !== undefined;
  });
}
