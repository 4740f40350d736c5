// GET /assistants/{id}/schemas: JSON Schemas read from the graph (Zod v3 and v4, LangGraph's Zod
// registry, StateSchema) or, for Annotation state, from its TypeScript source, through the official client.
import type { startTestRuntime } from "../support/harness";
import { startFixtureRuntime } from "./fixtures/runtime";

type Schema = {
  type?: string;
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  definitions?: Record<string, unknown>;
  [key: string]: unknown;
};

/** The message definition as typescript-json-schema names it (and the official suite expects it). */
const BASE_MESSAGE = "BaseMessage<MessageStructure<MessageToolSet>,MessageType>";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startFixtureRuntime();
});
afterAll(async () => {
  await rt?.close();
});

async function schemasOf(graphId: string): Promise<Record<string, Schema | undefined>> {
  const assistant = await rt.client.assistants.create({ graphId });
  return (await rt.client.assistants.getSchemas(assistant.assistant_id)) as unknown as Record<
    string,
    Schema | undefined
  >;
}

describe("assistant schemas through the official client", () => {
  test("plain Zod (v4): typed state, input without required keys, output with them, config = context", async () => {
    const schemas = await schemasOf("zod_state");
    expect(schemas.graph_id).toBe("zod_state");
    const fields = {
      items: { type: "array", items: { type: "string" }, default: [] },
      counter: { type: "number", default: 0 },
      label: { type: "string" },
    };
    expect(schemas.state_schema).toMatchObject({ type: "object", properties: fields });
    expect(schemas.input_schema).toMatchObject({ type: "object", properties: fields });
    expect(schemas.input_schema?.required).toBeUndefined();
    expect(schemas.output_schema).toMatchObject({ properties: fields, required: ["items", "counter"] });
    const context = {
      type: "object",
      properties: { model: { type: "string", enum: ["anthropic", "openai"] }, temperature: { type: "number" } },
      required: ["model"],
    };
    expect(schemas.config_schema).toMatchObject(context);
    expect(schemas.context_schema).toEqual(schemas.config_schema);
    expect(schemas.items).toBeUndefined();
  });

  test("Zod v4 registry: reducer input types, extras, and a z.custom messages channel marked as messages", async () => {
    const schemas = await schemasOf("zod_registry");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties: {
        messages: { langgraph_type: "messages" },
        // The reducer's update type (one string), with the extra of jsonSchemaExtra.
        tags: { type: "string", langgraph_nodes: ["work"], ui: "chips" },
        status: { type: "string", enum: ["idle", "busy", "done"], default: "idle" },
      },
    });
    expect(schemas.output_schema?.properties?.tags).toMatchObject({ type: "array", items: { type: "string" } });
    expect(schemas.state_schema?.properties?.status).not.toHaveProperty("langgraph_type");
    expect(schemas.config_schema).toBeUndefined();
  });

  test("Zod v3 with withLangGraph: the extras of the registry", async () => {
    const schemas = await schemasOf("zod_v3");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties: { messages: { type: "string", langgraph_type: "messages" }, count: { type: "number", default: 0 } },
      $schema: "http://json-schema.org/draft-07/schema#",
    });
    expect(schemas.output_schema?.properties?.messages).toMatchObject({
      type: "array",
      items: { type: "string" },
      langgraph_type: "messages",
    });
  });

  test("StateSchema with MessagesValue", async () => {
    const schemas = await schemasOf("state_schema");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties: { messages: { langgraph_type: "messages" }, count: { type: "number", default: 0 } },
    });
    expect(schemas.input_schema?.properties).toHaveProperty("count");
  });

  test("Annotation: channel types read from the TypeScript source, messages channels marked", async () => {
    const schemas = await schemasOf("annotation");
    const messages = {
      type: "array",
      items: { $ref: `#/definitions/${BASE_MESSAGE}` },
      langgraph_type: "messages",
    };
    const properties = { messages, topic: { type: "string" }, notes: { type: "array", items: { type: "string" } } };
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties,
      definitions: { [BASE_MESSAGE]: { description: expect.stringContaining("Base class for all types of messages") } },
      $schema: "http://json-schema.org/draft-07/schema#",
    });
    expect(schemas.input_schema).toMatchObject({ properties });
    expect(schemas.output_schema).toMatchObject({ properties });
    // The context annotation, which LangGraph keeps nowhere at run time.
    expect(schemas.config_schema).toEqual({
      type: "object",
      properties: { model_name: { type: "string" } },
      $schema: "http://json-schema.org/draft-07/schema#",
    });
    expect(schemas.context_schema).toEqual(schemas.config_schema);
  });

  test("Annotation from the source: literal unions as enums, nullable and nested values, input and output apart, a Promise export", async () => {
    const schemas = await schemasOf("annotation_typed");
    const output = {
      messages: { type: "array", items: { $ref: `#/definitions/${BASE_MESSAGE}` }, langgraph_type: "messages" },
      status: { type: "string", enum: ["busy", "done", "idle"] },
      summary: { type: ["null", "string"] },
      retry: { anyOf: [{ $ref: "#/definitions/{attempts:number;delayMs:number;}" }, { type: "null" }] },
    };
    const retry = { type: "object", properties: { attempts: { type: "number" }, delayMs: { type: "number" } } };
    const tags = { type: "array", items: { type: "string" } };
    expect(schemas.state_schema).toMatchObject({ type: "object", properties: { ...output, tags } });
    expect(schemas.state_schema?.definitions).toMatchObject({ "{attempts:number;delayMs:number;}": retry });
    expect(schemas.input_schema).toMatchObject({ type: "object", properties: { ...output, tags } });
    expect(schemas.output_schema).toMatchObject({ type: "object", properties: output });
    expect(schemas.output_schema?.properties).not.toHaveProperty("tags");
    const context = {
      type: "object",
      properties: {
        model: { type: "string", enum: ["anthropic", "openai", "unknown"] },
        temperature: { type: "number" },
      },
    };
    expect(schemas.config_schema).toMatchObject(context);
    expect(schemas.context_schema).toMatchObject(context);
  });

  test("Annotation from the source: a factory graph is typed by what it returns", async () => {
    const schemas = await schemasOf("annotation_factory");
    const properties = { level: { type: "string", enum: ["high", "low"] }, count: { type: "number" } };
    expect(schemas.state_schema).toMatchObject({ type: "object", properties });
    expect(schemas.output_schema).toMatchObject({ type: "object", properties });
    // No context annotation: an open object, as before.
    expect(schemas.config_schema).toEqual({ type: "object", $schema: "http://json-schema.org/draft-07/schema#" });
  });

  test("an Annotation state with a Zod context gets both", async () => {
    const schemas = await schemasOf("annotation_context");
    expect(schemas.state_schema).toMatchObject({
      properties: { messages: { items: { $ref: `#/definitions/${BASE_MESSAGE}` }, langgraph_type: "messages" } },
    });
    expect(schemas.context_schema).toMatchObject({ type: "object", properties: { reply_prefix: { type: "string" } } });
  });

  test("an Annotation graph without a config annotation: an empty object schema", async () => {
    const schemas = await schemasOf("nested");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties: { log: { type: "array", items: { type: "string" } } },
    });
    expect(schemas.config_schema).toEqual({ type: "object", $schema: "http://json-schema.org/draft-07/schema#" });
  });
});
