import { createHash, randomBytes } from "node:crypto";

/** How long an authorization's `state` is accepted by the callback. */
export const STATE_TTL_MS = 10 * 60 * 1000;

/** 256 random bits, URL-safe: unguessable. Only its hash is stored, so a database leak cannot replay it. */
export function generateState(): string {
  return randomBytes(32).toString("base64url");
}

export function hashState(state: string): string {
  return createHash("sha256").update(state).digest("hex");
}

/** RFC 7636: a 43-character verifier from 32 random bytes, and its S256 challenge. */
export function generateCodeVerifier(): string {
  return randomBytes(32).toString("base64url");
}

export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** Why a callback's `state` was refused; each is reported, none leads to a token exchange. */
export type StateProblem = "missing" | "unknown" | "other_provider" | "replayed" | "expired";

export const STATE_PROBLEM_TEXT: Record<StateProblem, string> = {
  missing: "The callback carries no state parameter.",
  unknown: "The state parameter does not match any authorization.",
  other_provider: "The state parameter was issued for another provider.",
  replayed: "The state parameter was already used.",
  expired: "The authorization expired; start it again.",
};
