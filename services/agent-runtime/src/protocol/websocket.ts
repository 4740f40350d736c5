// The protocol over a WebSocket: one connection per thread. The client sends commands (those of
// `/commands`, plus subscription.subscribe/unsubscribe) and receives their responses and the events
// of its subscriptions, each event once. Everything sent goes through one queue, in order: a
// subscription's answer, then what it replays, then live events.
import { ServerResponse, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";
import { WebSocketServer, type WebSocket } from "ws";
import { HttpError, type Logger } from "@lgp/server-kit";
import type { RunCaller } from "../runs/service";
import {
  errorResponse,
  failure,
  filterProblem,
  matches,
  type Command,
  type CommandResponse,
  type EventFilter,
  type ProtocolService,
} from "./service";

const UPGRADE_HEAD = Symbol("upgradeHead");
type UpgradeRequest = IncomingMessage & { [UPGRADE_HEAD]?: Buffer };

/** Subscriptions one connection may hold (the client opens a handful). */
const MAX_SUBSCRIPTIONS = 100;

/** Largest command accepted (a run's input travels in one). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Sends upgrade requests through the Express app like any request (CORS, auth, the contract's
 * validation), so the route (routes.ts) decides: it accepts the WebSocket, or answers an HTTP
 * refusal, which ends the connection.
 */
export function acceptUpgrades(server: Server, app: Express): void {
  server.on("upgrade", (req: UpgradeRequest, socket: Socket, head: Buffer) => {
    req[UPGRADE_HEAD] = head;
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.on("finish", () => socket.destroy());
    app(req as Parameters<Express>[0], res as Parameters<Express>[1]);
  });
}

export function upgradeHead(req: IncomingMessage): Buffer | undefined {
  return (req as UpgradeRequest)[UPGRADE_HEAD];
}

export class ProtocolSockets {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  constructor(
    private readonly protocol: ProtocolService,
    private readonly logger: Logger,
  ) {}

  /** Completes the handshake of an upgrade request the route accepted. */
  accept(
    req: IncomingMessage,
    res: ServerResponse,
    threadId: string,
    /** The upgrade request's user and configurable headers: its commands are theirs. */
    caller: RunCaller,
  ): void {
    const socket = req.socket;
    const head = upgradeHead(req) ?? Buffer.alloc(0);
    res.detachSocket(socket);
    this.server.handleUpgrade(req, socket, head, (ws) => {
      new ProtocolConnection(ws, threadId, caller, this.protocol, this.logger);
    });
  }

  /** Connections open now (the metrics' subscribers). */
  get connections(): number {
    return this.server.clients.size;
  }

  close(): void {
    for (const client of this.server.clients) client.terminate();
    this.server.close();
  }
}

class ProtocolConnection {
  private readonly subscriptions = new Map<string, EventFilter>();
  private queue: Promise<void> = Promise.resolve();
  private readonly controller = new AbortController();
  /** The last seq the live reader has handled; undefined until the first subscription. */
  private cursor: number | undefined;
  private nextSubscription = 1;

  constructor(
    private readonly ws: WebSocket,
    private readonly threadId: string,
    private readonly caller: RunCaller,
    private readonly protocol: ProtocolService,
    private readonly logger: Logger,
  ) {
    ws.on("message", (data, isBinary) =>
      this.receive(isBinary ? Buffer.from(data as Buffer).toString("utf8") : String(data)),
    );
    ws.on("close", () => this.controller.abort());
    ws.on("error", () => this.controller.abort());
  }

  /** Runs `task` after everything queued before it. */
  private enqueue(task: () => Promise<void> | void): Promise<void> {
    this.queue = this.queue.then(task).catch((error) => {
      this.logger.warn({ err: error, threadId: this.threadId }, "protocol WebSocket: cannot send");
    });
    return this.queue;
  }

  private send(text: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  private respond(response: CommandResponse): Promise<void> {
    return this.enqueue(() => this.send(JSON.stringify(response)));
  }

  private receive(text: string): void {
    let command: unknown;
    try {
      command = JSON.parse(text);
    } catch {
      void this.respond(failure(null, "invalid_argument", "Protocol commands must be valid JSON."));
      return;
    }
    const { id, method } = (command ?? {}) as Partial<Command>;
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || typeof method !== "string") {
      void this.respond(
        failure(null, "invalid_argument", "Protocol commands must include an integer id and string method."),
      );
      return;
    }
    const params = ((command as Command).params ?? {}) as Record<string, unknown>;
    if (method === "subscription.subscribe") void this.enqueue(() => this.subscribe(id, params));
    else if (method === "subscription.unsubscribe") void this.unsubscribe(id, params);
    else {
      // Other commands run beside the event flow, but their answers hold their place in the queue:
      // a run's events never reach the client before the answer to the run.start that made it (the
      // official client ends a projection it opens after that answer if the run's end came first).
      const response = this.protocol.command(this.threadId, command as Command, this.caller).catch((error) => {
        if (!(error instanceof HttpError))
          this.logger.error({ err: error, threadId: this.threadId, method }, "protocol WebSocket: a command failed");
        return errorResponse(id, error);
      });
      void this.enqueue(async () => this.send(JSON.stringify(await response)));
    }
  }

  /** Answers, replays what the thread kept that matches, then delivers live events (runs in the queue). */
  private async subscribe(id: number, params: Record<string, unknown>): Promise<void> {
    const problem = filterProblem(params);
    if (problem) {
      this.send(
        JSON.stringify(
          failure(
            id,
            "invalid_argument",
            problem === "empty"
              ? "subscription.subscribe requires a non-empty channels array."
              : "subscription.subscribe received an unsupported channel.",
          ),
        ),
      );
      return;
    }
    const filter: EventFilter = {
      channels: params.channels as string[],
      namespaces:
        Array.isArray(params.namespaces) &&
        params.namespaces.every((ns) => Array.isArray(ns) && ns.every((segment) => typeof segment === "string"))
          ? (params.namespaces as string[][])
          : undefined,
      depth:
        typeof params.depth === "number" && Number.isInteger(params.depth) && params.depth >= 0
          ? params.depth
          : undefined,
    };
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      this.send(
        JSON.stringify(failure(id, "invalid_argument", `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection.`)),
      );
      return;
    }
    const since = Number.isSafeInteger(params.since) && (params.since as number) >= 0 ? (params.since as number) : 0;
    if (this.cursor === undefined) {
      this.cursor = await this.protocol.lastSeq(this.threadId);
      void this.follow(this.cursor);
    }
    const replay = (await this.protocol.range(this.threadId, since, this.cursor)).filter((event) =>
      matches(filter, event),
    );
    const subscriptionId = `sub-${this.nextSubscription++}`;
    this.send(
      JSON.stringify({
        type: "success",
        id,
        result: { subscription_id: subscriptionId, replayed_events: replay.length },
        meta: { thread_id: this.threadId, applied_through_seq: this.cursor },
      }),
    );
    for (const event of replay) this.send(event.json);
    this.subscriptions.set(subscriptionId, filter);
  }

  private unsubscribe(id: number, params: Record<string, unknown>): Promise<void> {
    const subscriptionId = params.subscription_id;
    if (typeof subscriptionId !== "string")
      return this.respond(failure(id, "invalid_argument", "subscription.unsubscribe requires a subscription_id."));
    return this.enqueue(() => {
      const known = this.subscriptions.delete(subscriptionId);
      this.send(
        JSON.stringify(
          known
            ? { type: "success", id, result: {} }
            : failure(id, "no_such_subscription", `Unknown subscription: ${subscriptionId}`),
        ),
      );
    });
  }

  /** The live reader: each event once, to the connection, if a subscription wants it. */
  private async follow(since: number): Promise<void> {
    try {
      for await (const event of this.protocol.follow(this.threadId, since, this.controller.signal)) {
        void this.enqueue(() => {
          this.cursor = event.seq;
          for (const filter of this.subscriptions.values()) {
            if (matches(filter, event)) return this.send(event.json);
          }
        });
      }
    } catch (error) {
      if (!this.controller.signal.aborted) {
        this.logger.warn(
          { err: error, threadId: this.threadId },
          "protocol WebSocket: the thread's events cannot be read",
        );
        this.ws.close(1011, "The thread's events cannot be read");
      }
    }
  }
}
