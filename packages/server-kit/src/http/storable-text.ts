import type { RequestHandler } from "express";
import { invalid } from "./errors";

type Loc = (string | number)[];

/** In unicode mode a well-formed pair reads as one code point: only a lone surrogate is `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * What PostgreSQL cannot store in text or JSON: a NUL character, or a lone UTF-16 surrogate (JSON
 * may spell one as `\ud800`; PostgreSQL's JSON rejects it, and a text column would mangle it).
 */
function flaw(text: string): string | undefined {
  if (text.includes("\u0000")) return "text may not contain NUL (\\u0000) characters";
  if (LONE_SURROGATE.test(text)) return "text may not contain a lone UTF-16 surrogate (such as \\ud800)";
  return undefined;
}

/** The first string (key or value) of a JSON value PostgreSQL cannot store, with where it is. */
function findFlaw(value: unknown, loc: Loc, depth = 0): { loc: Loc; msg: string } | undefined {
  if (typeof value === "string") {
    const msg = flaw(value);
    return msg ? { loc, msg } : undefined;
  }
  if (depth > 64 || value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findFlaw(value[i], [...loc, i], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyFlaw = flaw(key);
    if (keyFlaw) return { loc: [...loc, key], msg: `a key: ${keyFlaw}` };
    const found = findFlaw(item, [...loc, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * A query parameter or body PostgreSQL could not store is refused up front (422, naming the field)
 * instead of failing in the database as a 500.
 */
export const rejectUnstorableText: RequestHandler = (req, _res, next) => {
  for (const [name, value] of Object.entries(req.query ?? {})) {
    const found = findFlaw(value, ["query", name]);
    if (found) throw invalid(found.loc, found.msg);
  }
  const found = findFlaw(req.body, ["body"]);
  if (found) throw invalid(found.loc, found.msg);
  next();
};
