// examples/auth, as the README runs it: a runtime process serving the notes agent behind a JWT
// auth handler (jose), tokens minted by the example's own script. Each user keeps their own
// threads and notes.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client, startRuntimeProcess } from "../support/harness";

const EXAMPLE = path.resolve(__dirname, "../../../../examples/auth");
const AUTH_SECRET = randomBytes(24).toString("hex");

function mint(user: string): string {
  return execFileSync(process.execPath, ["--import", "tsx", path.join(EXAMPLE, "token.ts"), user], {
    env: { ...process.env, AUTH_SECRET },
    encoding: "utf8",
  }).trim();
}

test("each user of the notes example sees only their own threads and notes", async () => {
  const runtime = await startRuntimeProcess("auth_example", {
    LANGGRAPH_JSON: path.join(EXAMPLE, "langgraph.json"),
    WORKERS: "1",
    AUTH_SECRET,
  });
  const { url, output } = runtime;
  try {
    const as = (user: string) =>
      new Client({
        apiUrl: url,
        defaultHeaders: { Authorization: `Bearer ${mint(user)}` },
        callerOptions: { maxRetries: 0 },
      });
    const [alice, bob] = [as("alice"), as("bob")];
    const say = (content: string) => ({ messages: [{ role: "user", content }] });

    const thread = await alice.threads.create();
    const reply = (await alice.runs.wait(thread.thread_id, "notes", { input: say("buy milk") })) as {
      messages: { content: string }[];
    };
    expect(reply.messages.at(-1)?.content).toBe("alice, noted (1 notes): buy milk");
    await bob.runs.wait(null, "notes", { input: say("call mum") });

    await expect(bob.threads.get(thread.thread_id)).rejects.toThrow(/404/);
    expect((await bob.threads.search()).map((t) => t.metadata?.owner)).toEqual([]);
    // Notes live under each user's namespace; the handler puts a bare namespace under the user too.
    const aliceNotes = await alice.store.searchItems(["notes"]);
    expect(aliceNotes.items.map((item) => [item.namespace, item.value])).toEqual([
      [["alice", "notes"], { text: "buy milk" }],
    ]);
    const bobNotes = await bob.store.searchItems([]);
    expect(bobNotes.items.map((item) => item.value)).toEqual([{ text: "call mum" }]);

    const anonymous = await fetch(`${url}/threads/search`, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);
    expect(output.join("")).not.toMatch(/OPEN MODE/);
  } finally {
    await runtime.stop();
  }
});
