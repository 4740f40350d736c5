// Generated from packages/contracts/openapi/agent-runtime/*.yaml by `npm run generate`. Do not edit.
export type paths = {
  "/.well-known/agent-card.json": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An assistant's A2A agent card */
    get: operations["a2aAgentCard"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/a2a/{assistant_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The assistant (its id, or its graph's for the default one). */
        assistant_id: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A2A JSON-RPC (message/send, message/stream, tasks/get, tasks/cancel)
     * @description A message's text parts go to the assistant as a user message on the thread of the A2A context (created on first use); the task completes with the assistant's last reply. `message/stream` answers server-sent events. Tasks are kept, so `tasks/get` answers from any replica. 404 for an assistant whose state has no `messages`.
     */
    post: operations["a2a"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create an assistant */
    post: operations["createAssistant"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/count": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Count assistants */
    post: operations["countAssistants"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/search": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Search assistants
     * @description Answers an array; sets `X-Pagination-Total` and, when more remain, `X-Pagination-Next`.
     */
    post: operations["searchAssistants"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/{assistant_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    /** Get an assistant (its active version) */
    get: operations["getAssistant"];
    put?: never;
    post?: never;
    /** Delete an assistant and all its versions */
    delete: operations["deleteAssistant"];
    options?: never;
    head?: never;
    /**
     * Update an assistant (adds a version and makes it active)
     * @description `config` and `context` are replaced whole; `metadata` is merged.
     */
    patch: operations["updateAssistant"];
    trace?: never;
  };
  "/assistants/{assistant_id}/graph": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    /** The drawable graph (nodes and edges) of the assistant's graph */
    get: operations["getAssistantGraph"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/{assistant_id}/latest": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Make a version the active one */
    post: operations["setLatestAssistantVersion"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/{assistant_id}/schemas": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    /** JSON schemas of the graph's input, output, state and context */
    get: operations["getAssistantSchemas"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/{assistant_id}/subgraphs": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    /** JSON schemas of the graph's subgraphs, keyed by namespace */
    get: operations["getAssistantSubgraphs"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/{assistant_id}/subgraphs/{namespace}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
        /** @description The node name of a subgraph (its own subgraphs follow with `recurse`). */
        namespace: string;
      };
      cookie?: never;
    };
    /** JSON schemas of one subgraph (and its subgraphs with recurse) */
    get: operations["getAssistantSubgraphsByNamespace"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/assistants/{assistant_id}/versions": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** List an assistant's versions, newest first */
    post: operations["listAssistantVersions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/info": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Server version and the features it offers. */
    get: operations["getInfo"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/mcp": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not served (the endpoint is stateless); 405 */
    get: operations["mcpStream"];
    put?: never;
    /**
     * MCP over streamable HTTP (JSON-RPC)
     * @description The Model Context Protocol, stateless: `initialize`, `tools/list` (one tool per assistant the caller may see, at most 100, named after it, with its graph's input schema) and `tools/call` (runs the assistant on a thread of its own and answers its output as text and `structuredContent`). Clients send `Accept: application/json, text/event-stream`.
     */
    post: operations["mcp"];
    /** Not served (the endpoint is stateless); 405 */
    delete: operations["mcpEndSession"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/monitoring/runs": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Runs per time bucket by status, error rate, run duration and queue wait percentiles, queue depth.
     * @description Runs are placed in the bucket of their creation (1-minute buckets over the last hour, 15-minute buckets over the last day, aligned to the clock; the last one is the current, partial bucket) with the status they have now. Durations run from a run's first start to its end (runs that ended); queue waits from when it was due (its creation, or `after_seconds` later) to its first start. `queue_depth` is the number of runs due and not yet started at the end of the bucket (now, for the current one). Runs deleted with their thread (a stateless run's temporary thread, a swept thread) are no longer counted.
     */
    get: operations["getRunMonitoring"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a background run on a new thread */
    post: operations["createStatelessRun"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs/batch": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create several background runs, each on a new thread
     * @description Every run is checked before any is made (Redis reachable, its assistant known, its graph loaded): such a failure makes none. A failure only making a run reveals (the auth handler refusing it, a lost connection) leaves the runs before it; the answer, with the failure's status, names them, and with an Idempotency-Key it is kept as the key's answer, so a repeat makes no run twice.
     */
    post: operations["createStatelessRunBatch"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs/cancel": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cancel several runs */
    post: operations["cancelRuns"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs/crons": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Schedule stateless runs (a new thread per run) */
    post: operations["createCron"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs/crons/count": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Count crons */
    post: operations["countCrons"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs/crons/search": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Search crons */
    post: operations["searchCrons"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs/crons/{cron_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        cron_id: string;
      };
      cookie?: never;
    };
    /** Get a cron */
    get: operations["getCron"];
    put?: never;
    post?: never;
    /** Delete a cron (its schedule stops) */
    delete: operations["deleteCron"];
    options?: never;
    head?: never;
    /** Change a cron's schedule, payload or state */
    patch: operations["updateCron"];
    trace?: never;
  };
  "/runs/stream": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a run on a new thread and stream its events */
    post: operations["createStatelessRunStream"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/runs/wait": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a run on a new thread and answer its final state values */
    post: operations["createStatelessRunWait"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/store/items": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read an item (null when there is none) */
    get: operations["getStoreItem"];
    /** Create or replace an item */
    put: operations["putStoreItem"];
    post?: never;
    /** Delete an item (no error when there is none) */
    delete: operations["deleteStoreItem"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/store/items/search": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Items under a namespace prefix, filtered on their value */
    post: operations["searchStoreItems"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/store/namespaces": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Distinct namespaces, optionally matching a prefix and/or suffix and truncated to a depth */
    post: operations["listStoreNamespaces"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a thread (optionally with supersteps applied in order) */
    post: operations["createThread"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/count": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Count threads */
    post: operations["countThreads"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/prune": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Delete threads, or keep only their latest checkpoint
     * @description `delete` deletes each thread as DELETE /threads/{id} does (its active runs stop, its runs and checkpoints go); `keep_latest` keeps each thread and its latest state, deleting its older checkpoints. Ids of threads that do not exist are skipped.
     */
    post: operations["pruneThreads"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/search": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Search threads */
    post: operations["searchThreads"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    /** Get a thread */
    get: operations["getThread"];
    put?: never;
    post?: never;
    /** Delete a thread, its runs and its checkpoints */
    delete: operations["deleteThread"];
    options?: never;
    head?: never;
    /** Merge metadata into a thread; a `ttl` sets its expiry anew (from now) */
    patch: operations["updateThread"];
    trace?: never;
  };
  "/threads/{thread_id}/commands": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a protocol command to a thread
     * @description `run.start` `{assistant_id, input, config?, metadata?, context?, multitaskStrategy?}` starts a run (the thread is created if it does not exist; input for a thread stopped at an interrupt resumes it) and answers `{run_id}`; `input.respond` `{interrupt_id, response}` or `{responses: [{interrupt_id, response}]}` (with `update?`, `goto?`, `config?`, `metadata?`) resumes the thread's interrupts; `state.get` `{keys?}` answers `{values, checkpoint}`. Protocol errors (a bad argument, nothing to resume, an unknown command) are `200` with `{type: "error", id, error, message}`; the run's own refusals keep their HTTP status (unknown assistant 404, busy thread under `reject` 409).
     */
    post: operations["sendProtocolCommand"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/copy": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Copy a thread with its whole state history */
    post: operations["copyThread"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/history": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    /** Past states, most recent first */
    get: operations["getThreadHistoryGet"];
    put?: never;
    /** Past states, most recent first */
    post: operations["getThreadHistory"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    /** List a thread's runs, newest first */
    get: operations["listRuns"];
    put?: never;
    /** Create a background run */
    post: operations["createRun"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs/crons": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Schedule runs on a thread */
    post: operations["createThreadCron"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs/stream": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a run and stream its events */
    post: operations["createRunStream"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs/wait": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a run and answer its final state values */
    post: operations["createRunWait"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs/{run_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    /** Get a run */
    get: operations["getRun"];
    put?: never;
    post?: never;
    /** Delete a finished run */
    delete: operations["deleteRun"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs/{run_id}/cancel": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cancel a run */
    post: operations["cancelRun"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs/{run_id}/join": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    /** Wait for a run to end and answer the thread's values */
    get: operations["joinRun"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/runs/{run_id}/stream": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    /** Stream a run's events (replaying those after Last-Event-ID) */
    get: operations["joinRunStream"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/state": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    /** The thread's current state */
    get: operations["getThreadState"];
    put?: never;
    /** Write values into the thread's state as if a node produced them */
    post: operations["updateThreadState"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/state/checkpoint": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The thread's state at a checkpoint given as an object */
    post: operations["getThreadStateAtCheckpointPost"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/state/{checkpoint_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        checkpoint_id: string;
      };
      cookie?: never;
    };
    /** The thread's state at a checkpoint */
    get: operations["getThreadStateAtCheckpoint"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/stream": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    /**
     * Stream every run of the thread
     * @description The thread's runs one after another, from its active run (or its next one) on, runs created after the client connected included; the stream stays open until the client leaves. Thread stream modes: `run_modes` (default: each run's events, then `run_done` `{run_id, status}`), `lifecycle` (each run's `metadata` and `run_done` only), `state_update` (`state_update` `{run_id, values}`: the thread's values when the stream sees a run end). Event ids are `<run_id>:<event id>`; `Last-Event-ID` with one resumes after it.
     */
    get: operations["joinThreadStream"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/threads/{thread_id}/stream/events": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    /**
     * The same over a WebSocket
     * @description Upgraded to a WebSocket: the client sends commands (as for `/commands`, plus `subscription.subscribe` `{channels, namespaces?, depth?, since?}` answering `{subscription_id, replayed_events}` and `subscription.unsubscribe` `{subscription_id}`) and receives their responses and the events of its subscriptions, each event once. A refused connection closes with code 4000 + the HTTP status (4401, 4403, 4404). Without an `Upgrade: websocket` header the answer is 426.
     */
    get: operations["openProtocolWebSocket"];
    put?: never;
    /**
     * Follow a thread's protocol events (SSE)
     * @description Server-sent events `id: <seq>\nevent: <method>\ndata: {type: "event", event_id, seq, method, params: {namespace, timestamp, node?, data}}` for the thread's protocol runs, one after another, matching the filter: `channels` (values, updates, messages, tools, custom, `custom:<name>`, lifecycle, input, checkpoints, tasks), `namespaces` (prefixes; subgraphs are `["<node>:<task id>", ...]`) and `depth` below them. Without `since` the events the thread keeps are replayed first, so a client that reconnects misses nothing; with it, only later ones. The stream stays open until the client leaves.
     */
    post: operations["streamProtocolEvents"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/ui/{graph}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        graph: components["parameters"]["UiGraphPath"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The tags that load a graph's UI components
     * @description HTML: a stylesheet link per CSS file of the bundle and the bundle's script, whose `onload` renders the component `name` into the page's shadow root `{{shadowRootId}}` (the client fills it in). URLs are absolute, on the request's host.
     */
    post: operations["getGraphUi"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/ui/{graph}/{file}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        graph: components["parameters"]["UiGraphPath"];
        file: string;
      };
      cookie?: never;
    };
    /**
     * A file of a graph's UI bundle
     * @description `entrypoint.js` and its stylesheet. Open without credentials (a page's script and link tags cannot send an API key): they are the graph's component code, no data.
     */
    get: operations["getGraphUiFile"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
};
export type webhooks = Record<string, never>;
export type components = {
  schemas: {
    ErrorDetail: {
      detail: string;
    };
    Assistant: {
      /** Format: uuid */
      assistant_id: string;
      graph_id: string;
      name: string;
      description?: string | null;
      config: {
        [key: string]: unknown;
      };
      context: {
        [key: string]: unknown;
      };
      metadata: {
        [key: string]: unknown;
      };
      version: number;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    AssistantVersion: {
      /** Format: uuid */
      assistant_id: string;
      graph_id: string;
      name: string;
      description?: string | null;
      config: {
        [key: string]: unknown;
      };
      context: {
        [key: string]: unknown;
      };
      metadata: {
        [key: string]: unknown;
      };
      version: number;
      /** Format: date-time */
      created_at: string;
    };
    AssistantCreate: {
      /** Format: uuid */
      assistant_id?: string;
      graph_id: string;
      config?: {
        [key: string]: unknown;
      };
      context?: {
        [key: string]: unknown;
      };
      metadata?: {
        [key: string]: unknown;
      };
      /**
       * @default raise
       * @enum {string}
       */
      if_exists: "raise" | "do_nothing";
      name?: string;
      description?: string | null;
    };
    AssistantPatch: {
      graph_id?: string;
      config?: {
        [key: string]: unknown;
      };
      context?: {
        [key: string]: unknown;
      };
      metadata?: {
        [key: string]: unknown;
      };
      name?: string;
      description?: string | null;
    };
    AssistantSearch: {
      graph_id?: string;
      name?: string;
      metadata?: {
        [key: string]: unknown;
      };
      /** @default 10 */
      limit: number;
      /** @default 0 */
      offset: number;
      /** @enum {string} */
      sort_by?: "assistant_id" | "graph_id" | "name" | "created_at" | "updated_at";
      /** @enum {string} */
      sort_order?: "asc" | "desc";
      select?: (
        | "assistant_id"
        | "graph_id"
        | "name"
        | "description"
        | "config"
        | "context"
        | "metadata"
        | "version"
        | "created_at"
        | "updated_at"
      )[];
    };
    AssistantCount: {
      graph_id?: string;
      name?: string;
      metadata?: {
        [key: string]: unknown;
      };
    };
    GraphDrawing: {
      nodes: {
        [key: string]: unknown;
      }[];
      edges: {
        [key: string]: unknown;
      }[];
    };
    GraphSchemas: {
      graph_id: string;
      input_schema?: unknown;
      output_schema?: unknown;
      state_schema?: unknown;
      config_schema?: unknown;
      context_schema?: unknown;
    };
    /** @description A subgraph's schemas under the official JS server's keys (state, input, output, config) and the Python server's (`*_schema`; context_schema equals config_schema for JS graphs). */
    SubgraphSchemas: {
      state?: unknown;
      input?: unknown;
      output?: unknown;
      config?: unknown;
      input_schema?: unknown;
      output_schema?: unknown;
      state_schema?: unknown;
      config_schema?: unknown;
      context_schema?: unknown;
    };
    /** @description Cron expression, read in the cron's timezone (UTC when it has none): five fields (minute hour day month weekday), or six with a leading seconds field. */
    CronSchedule: string;
    /** @description IANA time zone the schedule is read in ("America/New_York"); an unknown zone is 422. Null or absent: UTC on create, unchanged on update. */
    CronTimezone: string | null;
    CronCreate: {
      assistant_id: string;
      schedule: components["schemas"]["CronSchedule"];
      timezone?: components["schemas"]["CronTimezone"];
      input?: unknown;
      metadata?: {
        [key: string]: unknown;
      } | null;
      config?: {
        [key: string]: unknown;
      } | null;
      context?: {
        [key: string]: unknown;
      } | null;
      interrupt_before?: "*" | string[];
      interrupt_after?: "*" | string[];
      /**
       * Format: uri-reference
       * @description Called with the run when it ends: an http(s) URL, or a path of this deployment (a custom route, say), which the runtime calls on its own address.
       */
      webhook?: string | null;
      /**
       * @description Stateless crons only; what happens to each run's thread afterwards.
       * @enum {string|null}
       */
      on_run_completed?: "delete" | "keep" | null;
      /** @enum {string|null} */
      multitask_strategy?: "reject" | "interrupt" | "rollback" | "enqueue" | null;
      /** @enum {string|null} */
      if_not_exists?: "reject" | "create" | null;
      checkpoint_during?: boolean | null;
      /** @enum {string|null} */
      durability?: "sync" | "async" | "exit" | null;
      /**
       * Format: date-time
       * @description No run is created after this time.
       */
      end_time?: string | null;
      enabled?: boolean | null;
    };
    CronUpdate: {
      schedule?: components["schemas"]["CronSchedule"];
      timezone?: components["schemas"]["CronTimezone"];
      /** Format: date-time */
      end_time?: string | null;
      input?: unknown;
      metadata?: {
        [key: string]: unknown;
      };
      config?: {
        [key: string]: unknown;
      };
      context?: {
        [key: string]: unknown;
      };
      /**
       * Format: uri-reference
       * @description Called with the run when it ends: an http(s) URL, or a path of this deployment (a custom route, say), which the runtime calls on its own address.
       */
      webhook?: string | null;
      interrupt_before?: "*" | string[];
      interrupt_after?: "*" | string[];
      /** @enum {string} */
      on_run_completed?: "delete" | "keep";
      enabled?: boolean;
    };
    CronSearch: {
      assistant_id?: string;
      /** Format: uuid */
      thread_id?: string;
      enabled?: boolean;
      /** @default 10 */
      limit: number;
      /** @default 0 */
      offset: number;
      /** @enum {string} */
      sort_by?: "cron_id" | "assistant_id" | "thread_id" | "created_at" | "updated_at" | "next_run_date" | "end_time";
      /** @enum {string} */
      sort_order?: "asc" | "desc";
      select?: (
        | "cron_id"
        | "assistant_id"
        | "thread_id"
        | "on_run_completed"
        | "end_time"
        | "schedule"
        | "created_at"
        | "updated_at"
        | "user_id"
        | "payload"
        | "next_run_date"
        | "metadata"
        | "enabled"
        | "timezone"
        | "now"
      )[];
    };
    CronCount: {
      assistant_id?: string;
      /** Format: uuid */
      thread_id?: string;
    };
    Cron: {
      /** Format: uuid */
      cron_id: string;
      /** Format: uuid */
      assistant_id: string;
      /** Format: uuid */
      thread_id: string | null;
      /** @enum {string|null} */
      on_run_completed?: "delete" | "keep" | null;
      /** Format: date-time */
      end_time: string | null;
      schedule: string;
      /** @description IANA time zone the schedule is read in; null for UTC. */
      timezone: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description The run to create on every tick. */
      payload: {
        [key: string]: unknown;
      };
      user_id: string | null;
      /**
       * Format: date-time
       * @description The next tick; null once the cron is disabled or past its end_time.
       */
      next_run_date: string | null;
      metadata: {
        [key: string]: unknown;
      };
      enabled: boolean;
    };
    /** @description A cron, or the fields `select` asked for. */
    CronPartial: {
      /** Format: uuid */
      cron_id?: string;
      /** Format: uuid */
      assistant_id?: string;
      thread_id?: string | null;
      on_run_completed?: string | null;
      end_time?: string | null;
      schedule?: string;
      timezone?: string | null;
      created_at?: string;
      updated_at?: string;
      payload?: {
        [key: string]: unknown;
      };
      user_id?: string | null;
      next_run_date?: string | null;
      metadata?: {
        [key: string]: unknown;
      };
      enabled?: boolean;
      now?: string;
    };
    ServerInfo: {
      /** @description This runtime's version. */
      version: string;
      /** @description The version of @langchain/langgraph the graphs run on. */
      langgraph_js_version: string;
      /** @enum {string} */
      context: "js";
      flags: {
        assistants: boolean;
        crons: boolean;
        /** @description Whether LangSmith tracing is configured (an API key and tracing not turned off). */
        langsmith: boolean;
        langsmith_tracing_replicas: boolean;
      };
    };
    /**
     * @default 1h
     * @enum {string}
     */
    MonitoringWindow: "1h" | "24h";
    RunStatusCounts: {
      pending: number;
      running: number;
      success: number;
      error: number;
      interrupted: number;
      timeout: number;
    };
    /** @description Figures of the runs created in a span of time. */
    RunStats: {
      /** @description Runs created. */
      runs: number;
      by_status: components["schemas"]["RunStatusCounts"];
      /** @description Runs ended in `error` or `timeout` over runs ended; null when none ended. */
      error_rate: number | null;
      /** @description Median time from first start to end of the runs that ended; null without any. */
      duration_p50_seconds: number | null;
      duration_p95_seconds: number | null;
      /** @description Median time from due to first start of the runs that started; null without any. */
      queue_wait_p50_seconds: number | null;
      queue_wait_p95_seconds: number | null;
    };
    RunBucket: components["schemas"]["RunStats"] & {
      /** Format: date-time */
      start: string;
      /** @description Runs due and not started at the end of this bucket (now, for the current one). */
      queue_depth: number;
    };
    RunMonitoring: {
      window: components["schemas"]["MonitoringWindow"];
      /** @enum {integer} */
      bucket_seconds: 60 | 900;
      /**
       * Format: date-time
       * @description Start of the first bucket.
       */
      from: string;
      /**
       * Format: date-time
       * @description End of the last (current) bucket.
       */
      to: string;
      /**
       * Format: date-time
       * @description The database's time when the figures were read.
       */
      generated_at: string;
      totals: components["schemas"]["RunStats"];
      /** @description Runs pending (queued, or scheduled for later) and running now, whenever created. */
      current: {
        pending: number;
        running: number;
      };
      buckets: components["schemas"]["RunBucket"][];
    };
    ProtocolCommand: {
      id: number;
      method: string;
      params?: {
        [key: string]: unknown;
      };
    };
    ProtocolCommandResponse: {
      /** @enum {string} */
      type: "success" | "error";
      id?: number | null;
      result?: {
        [key: string]: unknown;
      };
      error?: string;
      message?: string;
      meta?: {
        thread_id?: string;
        applied_through_seq?: number;
      };
    };
    ProtocolEventFilter: {
      channels: string[];
      namespaces?: string[][];
      depth?: number;
      since?: number;
    };
    /**
     * @description A boolean query flag as the official client sends it ("1"/"0" or "true"/"false").
     * @enum {unknown}
     */
    QueryFlag: "0" | "1" | "true" | "false";
    /** @enum {string} */
    RunStatus: "pending" | "running" | "error" | "success" | "timeout" | "interrupted";
    /** @enum {string} */
    StreamMode:
      "values" | "updates" | "messages" | "messages-tuple" | "custom" | "events" | "debug" | "tasks" | "checkpoints";
    Run: {
      /** Format: uuid */
      run_id: string;
      /** Format: uuid */
      thread_id: string;
      /** Format: uuid */
      assistant_id: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      status: components["schemas"]["RunStatus"];
      metadata: {
        [key: string]: unknown;
      };
      kwargs: {
        [key: string]: unknown;
      };
      multitask_strategy: string;
    };
    RunCreate: {
      assistant_id: string;
      input?: unknown;
      command?: components["schemas"]["Command"];
      metadata?: {
        [key: string]: unknown;
      } | null;
      config?: {
        [key: string]: unknown;
      } | null;
      context?: {
        [key: string]: unknown;
      } | null;
      checkpoint_id?: string;
      checkpoint?: components["schemas"]["CheckpointInput"];
      interrupt_before?: "*" | string[];
      interrupt_after?: "*" | string[];
      /** @description One mode or several; empty (`""` or `[]`) means the default, `values`. */
      stream_mode?: components["schemas"]["StreamMode"] | components["schemas"]["StreamMode"][] | "";
      stream_subgraphs?: boolean;
      stream_resumable?: boolean;
      feedback_keys?: unknown;
      /** @enum {string} */
      on_disconnect?: "cancel" | "continue";
      /** @enum {string} */
      multitask_strategy?: "reject" | "interrupt" | "rollback" | "enqueue";
      /** @enum {string} */
      if_not_exists?: "reject" | "create";
      after_seconds?: number;
      /**
       * Format: uri-reference
       * @description Called with the run when it ends: an http(s) URL, or a path of this deployment (a custom route, say), which the runtime calls on its own address.
       */
      webhook?: string;
      /** @enum {string} */
      on_completion?: "delete" | "keep";
      checkpoint_during?: boolean;
      /** @enum {string} */
      durability?: "sync" | "async" | "exit";
      langsmith_tracer?: unknown;
    };
    /** @description Namespace labels; a label is non-empty and holds no ".". */
    StoreNamespace: string[];
    StorePutItem: {
      namespace: components["schemas"]["StoreNamespace"] & unknown;
      key: string;
      value: {
        [key: string]: unknown;
      };
      /** @description With a semantic index (langgraph.json's store.index): `false` keeps the item out of it, a list of field paths embeds those instead of the configured fields. Ignored without one. */
      index?: boolean | string[] | null;
      /** @description Minutes until the item expires; null or absent for never. */
      ttl?: number | null;
    };
    StoreDeleteItem: {
      namespace?: components["schemas"]["StoreNamespace"];
      key: string;
    };
    StoreSearchItems: {
      namespace_prefix?: components["schemas"]["StoreNamespace"];
      /** @description Conditions on top-level fields of the value: a plain value matches by equality, or an object of operators ($eq, $ne, $gt, $gte, $lt, $lte, $in, $nin). */
      filter?: {
        [key: string]: unknown;
      } | null;
      /** @default 10 */
      limit: number;
      /** @default 0 */
      offset: number;
      /** @description Natural-language query. With a semantic index (store.index), items rank by similarity to it and carry a `score`; items without vectors come after, with a null score. Ignored without one. */
      query?: string | null;
      refresh_ttl?: boolean | null;
    };
    StoreListNamespaces: {
      /** @description Leading labels to match; "*" matches any one label. */
      prefix?: components["schemas"]["StoreNamespace"];
      /** @description Trailing labels to match; "*" matches any one label. */
      suffix?: components["schemas"]["StoreNamespace"];
      max_depth?: number | null;
      /** @default 100 */
      limit: number;
      /** @default 0 */
      offset: number;
    };
    StoreItem: {
      namespace: string[];
      key: string;
      value: {
        [key: string]: unknown;
      };
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    StoreSearchItem: components["schemas"]["StoreItem"] & {
      score?: number | null;
    };
    /** @enum {string} */
    ThreadStatus: "idle" | "busy" | "interrupted" | "error";
    Thread: {
      /** Format: uuid */
      thread_id: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      metadata: {
        [key: string]: unknown;
      };
      status: components["schemas"]["ThreadStatus"];
      config: {
        [key: string]: unknown;
      };
      values?: {
        [key: string]: unknown;
      } | null;
      interrupts?: {
        [key: string]: unknown;
      };
    };
    Superstep: {
      updates: {
        values?: unknown;
        command?: components["schemas"]["Command"];
        as_node: string;
      }[];
    };
    Command: {
      goto?: unknown;
      update?: unknown;
      resume?: unknown;
    };
    ThreadCreate: {
      /** Format: uuid */
      thread_id?: string;
      metadata?: {
        [key: string]: unknown;
      };
      /**
       * @default raise
       * @enum {string}
       */
      if_exists: "raise" | "do_nothing";
      supersteps?: components["schemas"]["Superstep"][];
      ttl?: components["schemas"]["ThreadTtl"];
    };
    /** @description When the thread expires: `ttl` minutes from now, at most 100 years (a bare number is the same with `delete`). Once expired, a sweeper applies `strategy`: `delete` (default) deletes the thread as DELETE does, `keep_latest` keeps it with its latest checkpoint only. Null: no change. */
    ThreadTtl:
      | number
      | {
          /** @enum {string|null} */
          strategy?: "delete" | "keep_latest" | null;
          ttl: number;
        }
      | null;
    ThreadPrune: {
      thread_ids: string[];
      /**
       * @default delete
       * @enum {string|null}
       */
      strategy: "delete" | "keep_latest" | null;
    };
    ThreadSearch: {
      metadata?: {
        [key: string]: unknown;
      };
      values?: {
        [key: string]: unknown;
      };
      ids?: string[];
      status?: components["schemas"]["ThreadStatus"];
      /** @default 10 */
      limit: number;
      /** @default 0 */
      offset: number;
      /** @enum {string} */
      sort_by?: "thread_id" | "status" | "created_at" | "updated_at";
      /** @enum {string} */
      sort_order?: "asc" | "desc";
      select?: string[];
    };
    ThreadCount: {
      metadata?: {
        [key: string]: unknown;
      };
      values?: {
        [key: string]: unknown;
      };
      status?: components["schemas"]["ThreadStatus"];
    };
    CheckpointRef: {
      thread_id: string;
      checkpoint_ns: string;
      checkpoint_id: string;
      checkpoint_map?: {
        [key: string]: unknown;
      } | null;
    };
    CheckpointInput: {
      thread_id?: string;
      checkpoint_ns?: string;
      checkpoint_id?: string;
      checkpoint_map?: {
        [key: string]: unknown;
      } | null;
    };
    ThreadStateUpdate: {
      values?: unknown;
      as_node?: string;
      checkpoint_id?: string;
      checkpoint?: components["schemas"]["CheckpointInput"];
    };
    ThreadHistoryQuery: {
      /** @default 10 */
      limit: number;
      /** @description A checkpoint id, a checkpoint, or a config `{configurable: {checkpoint_id}}`. */
      before?:
        | string
        | {
            [key: string]: unknown;
          };
      metadata?: {
        [key: string]: unknown;
      };
      checkpoint?: components["schemas"]["CheckpointInput"];
    };
    ThreadTask: {
      id: string;
      name: string;
      /** @description Where the task comes from (`["__pregel_pull", "<node>"]` for a node, `__pregel_push` for a Send). */
      path?: unknown[];
      error?: string | null;
      interrupts?: unknown[];
      /** @description The address of a subgraph task's state (`{thread_id, checkpoint_ns: "<node>:<task id>"}`): give it to getState, getHistory or updateState. Null when `state` holds that state (`subgraphs=true`) or for a plain node. */
      checkpoint?: {
        [key: string]: unknown;
      } | null;
      /** @description The subgraph's state, when the state was asked with `subgraphs=true`. */
      state?: {
        [key: string]: unknown;
      } | null;
      result?: unknown;
    };
    ThreadState: {
      values: unknown;
      next: string[];
      tasks: components["schemas"]["ThreadTask"][];
      metadata: {
        [key: string]: unknown;
      };
      created_at: string | null;
      checkpoint: components["schemas"]["CheckpointRef"] | null;
      parent_checkpoint?: components["schemas"]["CheckpointRef"] | null;
      checkpoint_id?: string | null;
      parent_checkpoint_id?: string | null;
      interrupts?: unknown[];
    };
  };
  responses: {
    /** @description No valid credentials (a deployment key, or what the custom auth handler accepts). */
    Unauthorized: {
      headers: {
        "WWW-Authenticate"?: string;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The custom auth handler refused this action to this user. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description Any other error, as `{detail}`. */
    Error: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The request does not match the contract. */
    ValidationError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The resource does not exist. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The request conflicts with the current state (a busy thread, or a graph that failed to load at start-up). */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description Schemas keyed by namespace (`node`, or `node|child` when recursing). */
    Subgraphs: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": {
          [key: string]: components["schemas"]["SubgraphSchemas"];
        };
      };
    };
    /** @description The request with this Idempotency-Key is still being answered after the repeat waited 30 s for it; retry after `Retry-After` seconds. */
    IdempotencyKeyInProgress: {
      headers: {
        "Retry-After"?: string;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description Over a budget per minute: the caller's requests (or its runs or deploys), or the client address's requests that failed authentication (then every request of that address is refused until its window ends). Nothing was done; retry after `Retry-After` seconds. */
    TooManyRequests: {
      headers: {
        /** @description Seconds until the budget's window ends. */
        "Retry-After"?: number;
        /** @description The budget (draft-ietf-httpapi-ratelimit-headers), e.g. `"requests";q=600;w=60`: its name, requests per window and the window in seconds. */
        "RateLimit-Policy"?: string;
        /** @description What is left of it, e.g. `"requests";r=0;t=37`: the requests left and the seconds until the window ends. Absent when a single request asks more than a whole window allows. */
        RateLimit?: string;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description Server-sent events `event: <kind>\ndata: <json>\nid: <id>`; the first is `metadata` `{run_id, attempt}`. `Content-Location` and `Location` name the run's stream. */
    RunEventStream: {
      headers: {
        "Content-Location"?: string;
        Location?: string;
        [name: string]: unknown;
      };
      content: {
        "text/event-stream": string;
      };
    };
  };
  parameters: {
    /** @description Also list the subgraphs of subgraphs. */
    SubgraphsRecurse: components["schemas"]["QueryFlag"];
    /** @description An assistant UUID, or a graph id (its default assistant). */
    AssistantIdPath: string;
    /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
    IdempotencyKey: string;
    RunIdPath: string;
    LastEventIdHeader: string;
    ThreadIdPath: string;
    SubgraphsQuery: components["schemas"]["QueryFlag"];
    UiGraphPath: string;
  };
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
  a2aAgentCard: {
    parameters: {
      query: {
        assistant_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The agent card (name, description, skills, the A2A endpoint's URL). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            [key: string]: unknown;
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  a2a: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The assistant (its id, or its graph's for the default one). */
        assistant_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The JSON-RPC answer, or its events. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
          "text/event-stream": string;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createAssistant: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AssistantCreate"];
      };
    };
    responses: {
      /** @description The assistant (the existing one with `if_exists: do_nothing`). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Assistant"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  countAssistants: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["AssistantCount"];
      };
    };
    responses: {
      /** @description The number of matching assistants. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": number;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  searchAssistants: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["AssistantSearch"];
      };
    };
    responses: {
      /** @description Matching assistants. */
      200: {
        headers: {
          "X-Pagination-Total"?: string;
          "X-Pagination-Next"?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            [key: string]: unknown;
          }[];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getAssistant: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The assistant. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Assistant"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  deleteAssistant: {
    parameters: {
      query?: {
        /** @description Also delete the threads whose `metadata.assistant_id` is this assistant. */
        delete_threads?: components["schemas"]["QueryFlag"];
      };
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            [key: string]: unknown;
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  updateAssistant: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["AssistantPatch"];
      };
    };
    responses: {
      /** @description The assistant with its new active version. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Assistant"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getAssistantGraph: {
    parameters: {
      query?: {
        /** @description "true"/"false", or a subgraph depth. */
        xray?: string;
      };
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Nodes and edges. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["GraphDrawing"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  setLatestAssistantVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          version: number;
        };
      };
    };
    responses: {
      /** @description The assistant with that version active. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Assistant"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getAssistantSchemas: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Schemas. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["GraphSchemas"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getAssistantSubgraphs: {
    parameters: {
      query?: {
        /** @description Also list the subgraphs of subgraphs. */
        recurse?: components["parameters"]["SubgraphsRecurse"];
      };
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components["responses"]["Subgraphs"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getAssistantSubgraphsByNamespace: {
    parameters: {
      query?: {
        /** @description Also list the subgraphs of subgraphs. */
        recurse?: components["parameters"]["SubgraphsRecurse"];
      };
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
        /** @description The node name of a subgraph (its own subgraphs follow with `recurse`). */
        namespace: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components["responses"]["Subgraphs"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  listAssistantVersions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An assistant UUID, or a graph id (its default assistant). */
        assistant_id: components["parameters"]["AssistantIdPath"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          metadata?: {
            [key: string]: unknown;
          };
          /** @default 10 */
          limit?: number;
          /** @default 0 */
          offset?: number;
        };
      };
    };
    responses: {
      /** @description Versions. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AssistantVersion"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getInfo: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Versions and feature flags, in the official JS server's shape. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ServerInfo"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  mcpStream: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      /** @description Method not allowed. */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  mcp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | {
              [key: string]: unknown;
            }
          | {
              [key: string]: unknown;
            }[];
      };
    };
    responses: {
      /** @description The JSON-RPC answer. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
          "text/event-stream": string;
        };
      };
      /** @description A notification or response, accepted. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not a JSON-RPC message the endpoint takes. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      /** @description The client does not accept the answer's media types. */
      406: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      /** @description Not JSON. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  mcpEndSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      /** @description Method not allowed. */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getRunMonitoring: {
    parameters: {
      query?: {
        /** @description The last hour (`1h`, by minute) or the last day (`24h`, by quarter of an hour). */
        window?: components["schemas"]["MonitoringWindow"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The window's buckets, its totals and the runs waiting and running now. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RunMonitoring"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createStatelessRun: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RunCreate"];
      };
    };
    responses: {
      /** @description The run (pending). `Content-Location` names it. */
      200: {
        headers: {
          "Content-Location"?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Run"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createStatelessRunBatch: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RunCreate"][];
      };
    };
    responses: {
      /** @description The runs, in request order. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Run"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  cancelRuns: {
    parameters: {
      query?: {
        action?: "interrupt" | "rollback";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** Format: uuid */
          thread_id?: string;
          run_ids?: string[];
          /** @enum {string} */
          status?: "pending" | "running" | "all";
        };
      };
    };
    responses: {
      /** @description Cancellation requested. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createCron: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CronCreate"];
      };
    };
    responses: {
      /** @description The cron. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Cron"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyKeyInProgress"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  countCrons: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["CronCount"];
      };
    };
    responses: {
      /** @description How many crons match. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": number;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  searchCrons: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["CronSearch"];
      };
    };
    responses: {
      /** @description Matching crons. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["CronPartial"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getCron: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        cron_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The cron. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Cron"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  deleteCron: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        cron_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  updateCron: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        cron_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CronUpdate"];
      };
    };
    responses: {
      /** @description The cron. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Cron"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createStatelessRunStream: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RunCreate"];
      };
    };
    responses: {
      200: components["responses"]["RunEventStream"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createStatelessRunWait: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RunCreate"];
      };
    };
    responses: {
      /** @description The run's last state values (with `__error__` when it failed). */
      200: {
        headers: {
          "Content-Location"?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getStoreItem: {
    parameters: {
      query: {
        /** @description The namespace's labels joined with ".", e.g. `users.alice`. */
        namespace?: string;
        key: string;
        /** @description Restart the item's TTL (default true). */
        refresh_ttl?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The item, or null when the namespace holds no such key. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["StoreItem"] | null;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  putStoreItem: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["StorePutItem"];
      };
    };
    responses: {
      /** @description Stored. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyKeyInProgress"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  deleteStoreItem: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["StoreDeleteItem"];
      };
    };
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  searchStoreItems: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["StoreSearchItems"];
      };
    };
    responses: {
      /** @description Matching items, most recently updated first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: components["schemas"]["StoreSearchItem"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  listStoreNamespaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["StoreListNamespaces"];
      };
    };
    responses: {
      /** @description Namespaces in lexical order. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            namespaces: string[][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createThread: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["ThreadCreate"];
      };
    };
    responses: {
      /** @description The thread. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Thread"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  countThreads: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["ThreadCount"];
      };
    };
    responses: {
      /** @description The number of matching threads. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": number;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  pruneThreads: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ThreadPrune"];
      };
    };
    responses: {
      /** @description How many threads were pruned. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            pruned_count: number;
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  searchThreads: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["ThreadSearch"];
      };
    };
    responses: {
      /** @description Matching threads. */
      200: {
        headers: {
          "X-Pagination-Total"?: string;
          "X-Pagination-Next"?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            [key: string]: unknown;
          }[];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getThread: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The thread. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Thread"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  deleteThread: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  updateThread: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          metadata?: {
            [key: string]: unknown;
          };
          ttl?: components["schemas"]["ThreadTtl"];
        };
      };
    };
    responses: {
      /** @description The thread. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Thread"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  sendProtocolCommand: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProtocolCommand"];
      };
    };
    responses: {
      /** @description The command's response. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ProtocolCommandResponse"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Error"];
      default: components["responses"]["Error"];
    };
  };
  copyThread: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new thread. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Thread"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getThreadHistoryGet: {
    parameters: {
      query?: {
        limit?: number;
        before?: string;
      };
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description States. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ThreadState"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getThreadHistory: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["ThreadHistoryQuery"];
      };
    };
    responses: {
      /** @description States. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ThreadState"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  listRuns: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        status?: components["schemas"]["RunStatus"];
        select?: unknown;
      };
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Runs. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Run"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createRun: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RunCreate"];
      };
    };
    responses: {
      /** @description The run (pending). `Content-Location` names it. */
      200: {
        headers: {
          "Content-Location"?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Run"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createThreadCron: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CronCreate"];
      };
    };
    responses: {
      /** @description The cron. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Cron"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyKeyInProgress"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createRunStream: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RunCreate"];
      };
    };
    responses: {
      200: components["responses"]["RunEventStream"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  createRunWait: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). A repeated stream (`/runs/stream`) streams the first request's run from its first event, as joining it would; a repeated wait (`/runs/wait`) waits for that run. The same key on another request is a 422 naming this header. Keys are kept per deployment key or custom-auth user; a failed first request (any status but 2xx) frees its key, unless it is a batch that made some of its runs (its answer is kept). A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RunCreate"];
      };
    };
    responses: {
      /** @description The thread's values when the run ended (with `__error__` when it failed). */
      200: {
        headers: {
          "Content-Location"?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Run"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  deleteRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  cancelRun: {
    parameters: {
      query?: {
        wait?: components["schemas"]["QueryFlag"];
        action?: "interrupt" | "rollback";
      };
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Cancellation requested. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The run has stopped (with `wait`). */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  joinRun: {
    parameters: {
      query?: {
        /** @description The run is cancelled when the client leaves before it ends (SDK 1.7.3+ sends it). */
        cancel_on_disconnect?: components["schemas"]["QueryFlag"];
      };
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The thread's values when the run ended. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  joinRunStream: {
    parameters: {
      query?: {
        cancel_on_disconnect?: components["schemas"]["QueryFlag"];
        stream_mode?: unknown;
      };
      header?: {
        "Last-Event-ID"?: components["parameters"]["LastEventIdHeader"];
      };
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        run_id: components["parameters"]["RunIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components["responses"]["RunEventStream"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getThreadState: {
    parameters: {
      query?: {
        subgraphs?: components["parameters"]["SubgraphsQuery"];
      };
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The state. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ThreadState"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  updateThreadState: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ThreadStateUpdate"];
      };
    };
    responses: {
      /** @description The checkpoint written. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            checkpoint: components["schemas"]["CheckpointRef"];
            /** @description The same, as the config the official client's types expect. */
            configurable: components["schemas"]["CheckpointRef"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getThreadStateAtCheckpointPost: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          checkpoint: components["schemas"]["CheckpointInput"];
          subgraphs?: boolean;
        };
      };
    };
    responses: {
      /** @description The state. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ThreadState"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getThreadStateAtCheckpoint: {
    parameters: {
      query?: {
        subgraphs?: components["parameters"]["SubgraphsQuery"];
      };
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
        checkpoint_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The state. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ThreadState"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  joinThreadStream: {
    parameters: {
      query?: {
        /** @description run_modes, lifecycle, state_update (one, several, or a JSON array); others are ignored. */
        stream_mode?: unknown;
        /** @description The same, under the hosted server's reference name. */
        stream_modes?: unknown;
      };
      header?: {
        "Last-Event-ID"?: components["parameters"]["LastEventIdHeader"];
      };
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components["responses"]["RunEventStream"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  openProtocolWebSocket: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      426: components["responses"]["Error"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  streamProtocolEvents: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        thread_id: components["parameters"]["ThreadIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ProtocolEventFilter"];
      };
    };
    responses: {
      /** @description The event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/event-stream": string;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getGraphUi: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        graph: components["parameters"]["UiGraphPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          props?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description The tags. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
  getGraphUiFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        graph: components["parameters"]["UiGraphPath"];
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/javascript": string;
          "text/css": string;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
      default: components["responses"]["Error"];
    };
  };
}
