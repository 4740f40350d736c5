// fetch for URLs that came from input: a literal address is judged before connecting, a name when
// it is resolved (the policy's lookup), and the connection goes to the address that was judged.
import { Agent, fetch as undiciFetch } from "undici";
import type { OutboundPolicy } from "./policy";

export type OutboundFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch bound to `policy`; a refusal rejects with OutboundRefusedError (its `cause` for names). */
export function outboundFetch(policy: OutboundPolicy): OutboundFetch {
  const dispatcher = new Agent({ connect: { lookup: policy.lookup } });
  return async (url, init) => {
    policy.checkUrl(String(url));
    // undici's own fetch: the global one is undici too, but another copy whose dispatcher type differs.
    return (await undiciFetch(url, { ...(init as object), dispatcher })) as unknown as Response;
  };
}

/** The refusal behind a failed outbound fetch, if that is why it failed. */
export function refusalOf(error: unknown): string | undefined {
  for (let current = error as { name?: string; message?: string; cause?: unknown } | undefined; current;) {
    if (current.name === "OutboundRefusedError") return current.message;
    current = current.cause as typeof current;
  }
  return undefined;
}
