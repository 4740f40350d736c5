export { InProcessWebhookDispatcher, RedisWebhookDispatcher } from "./dispatcher";
export type { WebhookDelivery, WebhookDispatcher, WebhookOptions, WebhookOutcome } from "./dispatcher";
export { webhookPayload } from "./payload";
export { attachWebhooks } from "./attach";
export { webhookUrlCheck } from "./url-check";
