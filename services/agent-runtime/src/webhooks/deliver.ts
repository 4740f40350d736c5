// One webhook POST. Whether a failure is worth retrying is decided here, once, for both
// dispatchers: network errors, timeouts, 408, 429 and 5xx are; other answers are final.
import { refusalOf, type OutboundFetch } from "@lgp/server-kit";
import { publishedOwnUrl } from "../http/own-url";

export class WebhookDeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "WebhookDeliveryError";
  }
}

/**
 * A webhook's address: an absolute URL as it is; a path (`/custom/webhook`) of this deployment,
 * as the official server takes it, on this runtime's own address (see http/own-url).
 */
function webhookTarget(url: string): string {
  if (!url.startsWith("/")) return url;
  const own = publishedOwnUrl();
  if (!own) {
    throw new WebhookDeliveryError(
      `POST ${url.split("?")[0]}: a webhook path needs this runtime's address (set LANGGRAPH_API_URL in worker processes)`,
      false,
    );
  }
  return `${own}${url}`;
}

/**
 * One POST. `outbound`: the fetch for a URL given in the run (judged by the outbound policy; a
 * refusal is final); a path of this runtime goes out with the plain fetch.
 */
export async function deliverWebhook(
  webhook: string,
  body: string,
  timeoutMs: number,
  outbound: OutboundFetch = fetch,
): Promise<void> {
  const url = webhookTarget(webhook);
  let response: Response;
  try {
    response = await (webhook.startsWith("/") ? fetch : outbound)(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "langgraph-platform-webhooks" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) throw new WebhookDeliveryError(`POST ${redact(url)} refused: ${refusal}`, false);
    throw new WebhookDeliveryError(`POST ${redact(url)} failed: ${(error as Error).message}`, true);
  }
  // The receiver's answer is not read beyond its status; drain it so the socket is reused.
  await response.arrayBuffer().catch(() => undefined);
  if (response.ok) return;
  const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
  throw new WebhookDeliveryError(`POST ${redact(url)} answered ${response.status}`, retryable);
}

/** The URL without credentials or query (which may carry tokens), for logs and errors. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(invalid url)";
  }
}

/** Delay before retry number `retry` (1-based): base, 2x base, 4x base... */
export function backoffDelay(baseDelayMs: number, retry: number): number {
  return baseDelayMs * 2 ** (retry - 1);
}
