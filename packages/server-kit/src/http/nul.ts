import type { RequestHandler } from "express";
import { invalid } from "./errors";

/** Whether a JSON value holds a NUL character in any string (key or value). */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 64 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => hasNul(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (key.includes("\u0000") || hasNul(item, depth + 1)) return true;
  }
  return false;
}

/**
 * PostgreSQL can store no NUL character in text or JSON: a query parameter or body holding one is
 * refused up front (422) instead of failing in the database as a 500.
 */
export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (hasNul(value)) throw invalid(["query", name], "text may not contain NUL (\\u0000) characters");
  }
  if (hasNul(req.body)) throw invalid(["body"], "text may not contain NUL (\\u0000) characters");
  next();
};
