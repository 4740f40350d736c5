// A stand-in for a LangSmith API on loopback, for the tests of LangSmith tracing: it answers what
// the official clients (`langsmith` JS and Python) ask before tracing (`GET /info`) and records
// the runs they send, whichever ingest path they take (`POST /runs/multipart`, multipart form
// data, by default; `/runs/batch` and `/runs` when multipart is off), with each request's headers
// and body as sent.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** A run as the recorder puts it together from its create and its updates. */
export interface RecordedRun {
  id: string;
  name?: string;
  run_type?: string;
  session_name?: string;
  trace_id?: string;
  parent_run_id?: string | null;
  end_time?: unknown;
  extra?: { metadata?: Record<string, unknown> } & Record<string, unknown>;
  inputs?: unknown;
  outputs?: unknown;
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface LangSmithRecorder {
  url: string;
  requests: RecordedRequest[];
  /** Every run received, by id, its updates merged into its create. */
  runs: Map<string, RecordedRun>;
  /** Waits until a run matching `predicate` has arrived (and ended, unless `ended` is false). */
  waitForRun(
    predicate: (run: RecordedRun) => boolean,
    options?: { timeoutMs?: number; ended?: boolean },
  ): Promise<RecordedRun>;
  close(): Promise<void>;
}

/** What `/info` answers: a self-hosted LangSmith's, asking for multipart ingestion, no compression. */
const SERVER_INFO = {
  version: "0.10.0",
  license_expiration_time: null,
  batch_ingest_config: {
    use_multipart_endpoint: true,
    scale_up_qsize_trigger: 1000,
    scale_up_nthreads_limit: 16,
    scale_down_nempty_trigger: 4,
    size_limit: 100,
    size_limit_bytes: 20_971_520,
  },
  instance_flags: {},
};

export async function startLangSmithRecorder(): Promise<LangSmithRecorder> {
  const requests: RecordedRequest[] = [];
  const runs = new Map<string, RecordedRun>();
  const merge = (run: Record<string, unknown>) => {
    const id = String(run.id);
    runs.set(id, { ...runs.get(id), ...run, id } as RecordedRun);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        let raw = Buffer.concat(chunks);
        if (req.headers["content-encoding"] === "gzip") raw = gunzipSync(raw);
        const path = new URL(req.url ?? "/", "http://recorder").pathname.replace(/\/+$/, "");
        requests.push({ method: req.method ?? "GET", path, headers: req.headers, body: raw.toString("utf8") });
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        };
        if (req.method === "GET" && path.endsWith("/info")) return json(200, SERVER_INFO);
        if (req.method === "POST" && path.endsWith("/runs/multipart")) {
          const form = await new Request("http://recorder/", {
            method: "POST",
            headers: { "content-type": String(req.headers["content-type"]) },
            body: raw,
          }).formData();
          for (const [name, value] of form.entries()) {
            const text = typeof value === "string" ? value : await value.text();
            // `post.<id>` / `patch.<id>`: the run; `post.<id>.inputs` (outputs, events...): one field of it.
            const [, id, field] = /^(?:post|patch)\.([^.]+)(?:\.(.+))?$/.exec(name) ?? [];
            if (!id) continue;
            merge(field ? { id, [field]: JSON.parse(text) } : { ...JSON.parse(text), id });
          }
          return json(202, {});
        }
        if (req.method === "POST" && path.endsWith("/runs/batch")) {
          const body = JSON.parse(raw.toString("utf8")) as { post?: object[]; patch?: object[] };
          for (const run of [...(body.post ?? []), ...(body.patch ?? [])]) merge(run as Record<string, unknown>);
          return json(202, {});
        }
        const single = /\/runs(?:\/([^/]+))?$/.exec(path);
        if (single && (req.method === "POST" || req.method === "PATCH")) {
          merge({ ...(JSON.parse(raw.toString("utf8")) as object), ...(single[1] ? { id: single[1] } : {}) });
          return json(200, {});
        }
        json(404, { detail: "Not Found" });
      })().catch((error: Error) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: error.message }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    runs,
    async waitForRun(predicate, { timeoutMs = 30_000, ended = true } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const run = [...runs.values()].find((item) => predicate(item) && (!ended || item.end_time != null));
        if (run) return run;
        if (Date.now() > deadline) {
          const seen = [...runs.values()].map((item) => `${item.name} ${item.id} ${item.session_name}`);
          throw new Error(`no such run reached the LangSmith recorder; it has: ${seen.join("; ") || "none"}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
