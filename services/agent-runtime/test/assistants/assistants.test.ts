import { randomUUID } from "node:crypto";
import { defaultAssistantId } from "../../src/common/ids";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1 });
});
afterAll(async () => {
  await rt?.close();
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${rt.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("assistants through the official client", () => {
  test("one default assistant per graph, with the reference server's uuid5 id", async () => {
    const agent = await rt.client.assistants.get("agent");
    expect(agent).toMatchObject({
      assistant_id: defaultAssistantId("agent"),
      graph_id: "agent",
      name: "agent",
      metadata: { created_by: "system" },
      version: 1,
    });
    expect(defaultAssistantId("agent")).toBe("fe096781-5601-53d2-b2f6-0d3403f7e9ca");
    expect((await rt.client.assistants.get(agent.assistant_id)).assistant_id).toBe(agent.assistant_id);
    expect((await rt.client.assistants.get(defaultAssistantId("approval"))).graph_id).toBe("approval");
  });

  test("create with an id: raise is 409, do_nothing answers the existing one", async () => {
    const assistantId = randomUUID();
    const created = await rt.client.assistants.create({
      graphId: "agent",
      assistantId,
      name: "polite",
      context: { reply_prefix: "Dear: " },
      metadata: { team: "a" },
      description: "says dear",
    });
    expect(created).toMatchObject({ assistant_id: assistantId, name: "polite", version: 1, description: "says dear" });
    await expect(rt.client.assistants.create({ graphId: "agent", assistantId })).rejects.toThrow(/HTTP 409/);
    const again = await rt.client.assistants.create({
      graphId: "agent",
      assistantId,
      ifExists: "do_nothing",
      name: "other",
    });
    expect(again.name).toBe("polite");
  });

  test("PATCH adds an active version: context and config replaced whole, metadata merged", async () => {
    const created = await rt.client.assistants.create({
      graphId: "agent",
      context: { reply_prefix: "A: " },
      config: { tags: ["x"] },
      metadata: { keep: 1, change: "old" },
    });
    const updated = await rt.client.assistants.update(created.assistant_id, {
      context: { other: true },
      config: { recursion_limit: 5 },
      metadata: { change: "new" },
    });
    expect(updated.version).toBe(2);
    expect(updated.context).toEqual({ other: true });
    expect(updated.config).toEqual({ recursion_limit: 5 });
    expect(updated.metadata).toEqual({ keep: 1, change: "new" });

    const versions = await rt.client.assistants.getVersions(created.assistant_id);
    expect(versions.map((version) => version.version)).toEqual([2, 1]);
    expect(versions[1].context).toEqual({ reply_prefix: "A: " });

    const back = await rt.client.assistants.setLatest(created.assistant_id, 1);
    expect(back.version).toBe(1);
    expect((await rt.client.assistants.get(created.assistant_id)).context).toEqual({ reply_prefix: "A: " });
    // Versions are kept: 2 can be made active again; 9 does not exist.
    expect((await rt.client.assistants.setLatest(created.assistant_id, 2)).context).toEqual({ other: true });
    await expect(rt.client.assistants.setLatest(created.assistant_id, 9)).rejects.toThrow(/HTTP 404/);
    const filtered = await rt.client.assistants.getVersions(created.assistant_id, { metadata: { change: "old" } });
    expect(filtered.map((version) => version.version)).toEqual([1]);
  });

  test("search filters, sorts, pages with headers; count agrees", async () => {
    const tag = randomUUID();
    for (const name of ["b-one", "a-two", "c-three"]) {
      await rt.client.assistants.create({ graphId: "approval", name, metadata: { tag } });
    }
    const byName = await rt.client.assistants.search({ metadata: { tag }, sortBy: "name", sortOrder: "asc" });
    expect(byName.map((assistant) => assistant.name)).toEqual(["a-two", "b-one", "c-three"]);
    const page = await rt.client.assistants.search({
      metadata: { tag },
      sortBy: "name",
      sortOrder: "asc",
      limit: 2,
      offset: 0,
      includePagination: true,
    });
    expect(page.assistants.map((assistant) => assistant.name)).toEqual(["a-two", "b-one"]);
    expect(page.next).toBe("2");
    const response = await post("/assistants/search", { metadata: { tag }, limit: 2, offset: 2 });
    expect(response.headers.get("x-pagination-total")).toBe("3");
    expect(response.headers.get("x-pagination-next")).toBeNull();
    expect(await rt.client.assistants.count({ metadata: { tag } })).toBe(3);
    expect(await rt.client.assistants.count({ graphId: "approval", metadata: { tag } })).toBe(3);
    expect(await rt.client.assistants.count({ graphId: "agent", metadata: { tag } })).toBe(0);
    const named = await rt.client.assistants.search({ name: "c-thr", metadata: { tag } });
    expect(named.map((assistant) => assistant.name)).toEqual(["c-three"]);
    const selected = await rt.client.assistants.search({
      metadata: { tag },
      select: ["assistant_id", "name"],
      limit: 1,
    });
    expect(Object.keys(selected[0]).sort()).toEqual(["assistant_id", "name"]);
  });

  test("delete removes the assistant and all its versions", async () => {
    const created = await rt.client.assistants.create({ graphId: "agent" });
    await rt.client.assistants.update(created.assistant_id, { context: { reply_prefix: "x" } });
    await rt.client.assistants.delete(created.assistant_id);
    await expect(rt.client.assistants.get(created.assistant_id)).rejects.toThrow(/HTTP 404/);
    await expect(rt.client.assistants.getVersions(created.assistant_id)).rejects.toThrow(/HTTP 404/);
    await expect(rt.client.assistants.delete(created.assistant_id)).rejects.toThrow(/HTTP 404/);
  });

  test("delete with delete_threads removes the assistant's threads", async () => {
    const created = await rt.client.assistants.create({ graphId: "agent" });
    const thread = await rt.client.threads.create();
    await rt.client.runs.wait(thread.thread_id, created.assistant_id, {
      input: { messages: [{ role: "user", content: "x" }] },
    });
    expect((await rt.client.threads.get(thread.thread_id)).metadata).toMatchObject({
      assistant_id: created.assistant_id,
    });
    await rt.client.assistants.delete(created.assistant_id, { deleteThreads: true });
    await expect(rt.client.threads.get(thread.thread_id)).rejects.toThrow(/HTTP 404/);
  });

  test("graph and schemas of the assistant's graph", async () => {
    const graph = await rt.client.assistants.getGraph("approval");
    const ids = graph.nodes.map((node) => node.id);
    expect(ids).toEqual(expect.arrayContaining(["__start__", "propose", "review", "publish", "revise", "__end__"]));
    expect(graph.edges).toEqual(
      expect.arrayContaining([expect.objectContaining({ source: "propose", target: "review" })]),
    );
    const xray = await rt.client.assistants.getGraph("agent", { xray: true });
    expect(xray.nodes.map((node) => node.id)).toContain("agent");
    const schemas = await rt.client.assistants.getSchemas("agent");
    expect(schemas.graph_id).toBe("agent");
    expect(Object.keys((schemas.state_schema as { properties: object }).properties)).toEqual(["messages"]);
    expect(Object.keys((schemas.context_schema as { properties: object }).properties)).toEqual(["reply_prefix"]);
  });

  test("errors: unknown ids 404, unknown graph 404, malformed bodies 422, all {detail}", async () => {
    await expect(rt.client.assistants.get(randomUUID())).rejects.toThrow(/HTTP 404/);
    // The official server's wording, which its clients and tests match on.
    await expect(rt.client.assistants.get("no-such-graph")).rejects.toThrow(
      /HTTP 404: .*No assistant found for \\"no-such-graph\\"/,
    );
    await expect(rt.client.assistants.create({ graphId: "no-such-graph" })).rejects.toThrow(/HTTP 404/);
    for (const [path, body] of [
      ["/assistants", {}],
      ["/assistants", { graph_id: ["agent"] }],
      ["/assistants", { graph_id: "agent", if_exists: "sometimes" }],
      ["/assistants", { graph_id: "agent", assistant_id: "not-a-uuid" }],
      ["/assistants/search", { limit: -1 }],
      ["/assistants/search", { sort_by: "colour" }],
      [`/assistants/${defaultAssistantId("agent")}/latest`, { version: "two" }],
    ] as const) {
      const response = await post(path, body);
      expect({ path, body, status: response.status }).toEqual({ path, body, status: 422 });
      expect(typeof ((await response.json()) as { detail: unknown }).detail).toBe("string");
    }
    const malformed = await fetch(`${rt.url}/assistants`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(422);
    const missing = await fetch(`${rt.url}/assistants/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: expect.stringContaining("not found") });
  });
});
