// Rate limits per deployment key, counted in memory (no REDIS_URL): a key over its budget gets 429s
// with Retry-After and the IETF RateLimit fields while another key is served as before; run
// creates have a budget of their own (a batch counts each run); probes, /info, /metrics and the
// docs are never limited. Through the official client where a client is involved.
import { randomUUID } from "node:crypto";
import { runtimeKeyHash } from "@lgp/server-kit";
import { Client, startTestRuntime } from "../support/harness";

const BUDGET = 12;
const RUNS = 3;
const [FLOODER, NEIGHBOUR, RUNNER, BATCHER] = Array.from({ length: 4 }, () => `lgp_rt_${randomUUID()}`);
let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({
    workers: 1,
    env: {
      API_KEY_HASHES: [FLOODER, NEIGHBOUR, RUNNER, BATCHER].map(runtimeKeyHash).join(","),
      RATE_LIMIT_REQUESTS_PER_MINUTE: String(BUDGET),
      RATE_LIMIT_RUNS_PER_MINUTE: String(RUNS),
    },
  });
});
afterAll(async () => {
  await rt?.close();
});

const client = (key: string) => new Client({ apiUrl: rt.url, apiKey: key, callerOptions: { maxRetries: 0 } });
/** The HTTP status a call of the official client ends with (200 when it succeeds). */
const status = (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: { status?: number }) => error.status,
  );
const search = (key: string) =>
  fetch(`${rt.url}/threads/search`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: "{}",
  });

test("a flood from one key is refused with 429, Retry-After and RateLimit fields; another key is unaffected", async () => {
  const flooder = client(FLOODER);
  const statuses = await Promise.all(Array.from({ length: BUDGET + 5 }, () => status(flooder.threads.search())));
  expect(statuses.filter((code) => code === 200)).toHaveLength(BUDGET);
  expect(statuses.filter((code) => code === 429)).toHaveLength(5);

  const refused = await search(FLOODER);
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(refused.headers.get("ratelimit-policy")).toBe(`"requests";q=${BUDGET};w=60`);
  expect(refused.headers.get("ratelimit")).toBe(`"requests";r=0;t=${retryAfter}`);
  expect(await refused.json()).toEqual({
    detail: `Rate limit exceeded: at most ${BUDGET} requests per minute for this API key; retry in ${retryAfter} s`,
  });

  // The other key has its whole budget; the flooder still cannot pass.
  expect(await client(NEIGHBOUR).threads.search()).toEqual([]);
  const served = await search(NEIGHBOUR);
  expect(served.status).toBe(200);
  expect(served.headers.get("ratelimit")).toMatch(new RegExp(`^"requests";r=${BUDGET - 2};t=\\d+$`));
  expect(await status(flooder.threads.create())).toBe(429);
});

test("probes, /info, /metrics and the docs are never limited, and /metrics counts the 429s", async () => {
  expect((await search(FLOODER)).status).toBe(429);
  for (const path of ["/ok", "/ready", "/info", "/metrics", "/openapi.json", "/docs/"]) {
    for (let i = 0; i < BUDGET + 2; i++) {
      const res = await fetch(`${rt.url}${path}`, { headers: { "x-api-key": FLOODER } });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get("ratelimit")).toBeNull();
      await res.arrayBuffer();
    }
  }
  const metrics = await (await fetch(`${rt.url}/metrics`, { headers: { "x-api-key": FLOODER } })).text();
  expect(metrics).toMatch(/^http_rate_limited_total\{policy="requests",service="agent-runtime"\} 8$/m);
});

test("run creates have a budget of their own: the official client's runs past it are 429s, other calls pass", async () => {
  const runner = client(RUNNER);
  const thread = await runner.threads.create();
  const input = { messages: [{ role: "user", content: "hi" }] };
  await runner.runs.wait(thread.thread_id, "agent", { input });
  await runner.runs.wait(null, "agent", { input });
  const chunks = [];
  for await (const chunk of runner.runs.stream(thread.thread_id, "agent", { input })) chunks.push(chunk);
  expect(chunks.length).toBeGreaterThan(0);

  const refused = await runner.runs.create(thread.thread_id, "agent", { input }).then(
    () => undefined,
    (error: { status?: number; text?: string }) => error,
  );
  expect(refused?.status).toBe(429);
  expect(JSON.parse(refused!.text!).detail).toMatch(
    new RegExp(`^Rate limit exceeded: at most ${RUNS} runs per minute for this API key; retry in \\d+ s$`),
  );
  // Three runs, no fourth; reads and other creates still pass.
  expect(await runner.runs.list(thread.thread_id)).toHaveLength(2);
  expect(await status(runner.threads.create())).toBe(200);
});

test("a batch counts each of its runs; one larger than the budget is refused at once", async () => {
  const batch = (size: number) =>
    fetch(`${rt.url}/runs/batch`, {
      method: "POST",
      headers: { "x-api-key": BATCHER, "content-type": "application/json" },
      body: JSON.stringify(Array.from({ length: size }, () => ({ assistant_id: "agent", input: { messages: [] } }))),
    });
  const tooLarge = await batch(RUNS + 1);
  expect(tooLarge.status).toBe(429);
  expect(((await tooLarge.json()) as { detail: string }).detail).toBe(
    `This request counts ${RUNS + 1} runs, more than the ${RUNS} allowed per minute for this API key; send fewer at once`,
  );
  // It took nothing from the budget: a batch of all of it passes, then a single run does not.
  const whole = await batch(RUNS);
  expect(whole.status).toBe(200);
  expect(whole.headers.get("ratelimit")).toMatch(/^"runs";r=0;t=\d+$/);
  expect(await whole.json()).toHaveLength(RUNS);
  expect(await status(client(BATCHER).runs.create(null, "agent", { input: {} }))).toBe(429);
});
