// An OTLP/HTTP trace receiver on loopback for tests: takes what the OpenTelemetry SDK exports as
// JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) at /v1/traces and keeps the spans.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** Nanoseconds since the epoch, as decimal strings (OTLP's JSON). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

const valueOf = (value: OtlpValue) =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        if (req.url === "/v1/traces" && req.headers["content-type"]?.includes("json")) {
          this.take(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private take(body: {
    resourceSpans?: {
      resource?: { attributes?: OtlpAttribute[] };
      scopeSpans?: { spans?: (Omit<ReceivedSpan, "service" | "attributes"> & { attributes?: OtlpAttribute[] })[] }[];
    }[];
  }): void {
    for (const resource of body.resourceSpans ?? []) {
      const service = String(attributesOf(resource.resource?.attributes)["service.name"]);
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          // A root span's parent comes as an empty string.
          const parentSpanId = span.parentSpanId || undefined;
          this.spans.push({ ...span, parentSpanId, service, attributes: attributesOf(span.attributes) });
        }
      }
    }
  }

  /** Waits until `found` holds for the spans received (or the time is up). */
  async waitFor(found: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    while (!found(this.spans) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return this.spans;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
