// The README's snippets that start the platform themselves (`npm start` with a setting or another
// project), each run as pasted on fresh databases, checked for what the README says beside it, and
// stopped with Ctrl-C.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { onPorts, type Block } from "./blocks";
import { portIsFree, start, terminal, type Setup, type Started } from "./shell";

/** A line npm start printed: `agent runtime key  lgp_...`. */
function printed(started: Started, label: string): string {
  const value = new RegExp(`^${label}\\s+(\\S+)`, "m").exec(started.output())?.[1];
  if (!value) throw new Error(`npm start did not print "${label}":\n${started.output()}`);
  return value;
}

/** Starts the snippet, runs `check` against it, and stops it as Ctrl-C does. */
async function whileStarted(block: Block, setup: Setup, check: (started: Started) => Promise<void>): Promise<void> {
  const started = await start(onPorts(block.code, setup.ports), setup.env);
  try {
    await check(started);
  } finally {
    await started.stop();
  }
}

/** The README still says `text` here (line breaks as any space). */
function expectIn(prose: string, text: string): void {
  const flat = (value: string) => value.replace(/\s+/g, " ");
  if (!flat(prose).includes(flat(text))) throw new Error(`the README no longer says ${JSON.stringify(text)} here`);
}

type Check = (block: Block, setup: Setup) => Promise<void>;

export const startSnippetChecks: Record<string, Check> = {
  // Starts its own npm start as a background job, makes a run as Alice, searches as Bob, and
  // stops it with `kill %1`: typed in a terminal, where that signals the job's whole group.
  "auth-walkthrough": async (block, setup) => {
    const ran = await terminal(onPorts(block.code, setup.ports), {
      env: setup.env,
      dir: setup.dataDir,
      timeoutMs: 240_000,
    });
    if (ran.code !== 0) throw new Error(`the auth walkthrough exited ${ran.code}:\n${ran.output}`);
    // kill %1 stopped everything that start ran.
    expect([await portIsFree(setup.ports.controlPlane), await portIsFree(setup.ports.runtime)]).toEqual([true, true]);
    expectIn(block.after, "Alice's run answers `alice, noted (1 notes): buy milk`");
    expectIn(block.after, "Bob's search answers `[]`");
    const alice = ran.stdout.indexOf("alice, noted (1 notes): buy milk");
    expect(alice).toBeGreaterThan(0);
    // Bob's curl prints right after Alice's JSON (curl -s adds no newline): `...}[]`, and no thread.
    const afterAlice = ran.stdout.slice(alice);
    expect(afterAlice).toMatch(/(^|\})\[\]/m);
    expect(afterAlice).not.toContain("thread_id");
  },

  "cors-start": (block, setup) =>
    whileStarted(block, setup, async (started) => {
      const runtime = `http://localhost:${setup.ports.runtime}`;
      const key = printed(started, "agent runtime key");
      const preflight = (origin: string) =>
        fetch(`${runtime}/threads/search`, {
          method: "OPTIONS",
          headers: {
            Origin: origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-api-key",
          },
        });
      const allowed = await preflight("http://localhost:3000");
      expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
      expect((await preflight("http://localhost:4000")).headers.get("access-control-allow-origin")).toBeNull();
      // A form or text/plain POST goes without a preflight: another origin's is refused.
      expectIn(block.before, "from a page of another origin is refused with 403");
      const simple = await fetch(`${runtime}/threads/search`, {
        method: "POST",
        headers: { Origin: "http://localhost:4000", "Content-Type": "text/plain", "x-api-key": key },
        body: "{}",
      });
      expect(simple.status).toBe(403);
    }),

  "python-start": (block, setup) =>
    whileStarted(block, setup, async (started) => {
      const response = await fetch(`http://localhost:${setup.ports.runtime}/runs/wait`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": printed(started, "agent runtime key") },
        body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ role: "user", content: "hi" }] } }),
      });
      expect(response.status).toBe(200);
      // The Python server's shape: a message is its model_dump().
      expectIn(block.before, 'a message is its `model_dump()`: `{"content", "additional_kwargs", "response_metadata"');
      const { messages } = (await response.json()) as { messages: Record<string, unknown>[] };
      expect(messages.at(-1)).toMatchObject({
        type: "ai",
        content: "echo: hi",
        additional_kwargs: {},
        response_metadata: {},
      });
    }),

  "genui-start": (block, setup) =>
    whileStarted(block, setup, async (started) => {
      const runtime = `http://localhost:${setup.ports.runtime}`;
      const tags = await fetch(`${runtime}/ui/weather`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": printed(started, "agent runtime key") },
        body: JSON.stringify({ name: "weather" }),
      });
      expect(tags.status).toBe(200);
      const script = /<script src="([^"]+)"/.exec(await tags.text())?.[1];
      expect(script).toMatch(/\/ui\/weather\/entrypoint\.js$/);
      // "the files are open without credentials"
      expectIn(block.before, "the files are open without credentials");
      const file = await fetch(script!.replace(/^http:\/\/[^/]+/, runtime));
      expect(file.status).toBe(200);
      expect(await file.text()).toMatch(/^var __LGUI_weather = /);
    }),

  // A stand-in OTLP collector where the snippet points (127.0.0.1:4318, or a free port if taken).
  "otel-start": async (block, setup) => {
    const bodies: string[] = [];
    const collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (request.url === "/v1/traces") bodies.push(Buffer.concat(chunks).toString("latin1"));
        response.writeHead(200).end();
      });
    });
    const port = await new Promise<number>((resolve) => {
      collector.once("error", () =>
        collector.listen(0, "127.0.0.1", () => resolve((collector.address() as AddressInfo).port)),
      );
      collector.listen(4318, "127.0.0.1", () => resolve(4318));
    });
    const pointed = { ...block, code: block.code.replace("127.0.0.1:4318", `127.0.0.1:${port}`) };
    try {
      await whileStarted(pointed, setup, async (started) => {
        const key = printed(started, "agent runtime key");
        await fetch(`http://localhost:${setup.ports.runtime}/assistants/search`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: "{}",
        });
        await fetch(`http://localhost:${setup.ports.controlPlane}/v2/deployments`, {
          headers: { "X-Api-Key": printed(started, "control plane key") },
        });
        // Both services export their spans (protobuf; each batch names its service.name).
        const deadline = Date.now() + 30_000;
        const exported = (service: string) => bodies.some((body) => body.includes(service));
        while (!(exported("agent-runtime") && exported("control-plane")) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(exported("agent-runtime")).toBe(true);
        expect(exported("control-plane")).toBe(true);
      });
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
  },
};
