// A message's dict is what LangChain's own toDict() gives, however it is computed: LangChain's
// message classes take a quicker way (their fields as they are) whenever that writes the same
// JSON, and every other message, or field, goes through toDict().
import {
  AIMessage,
  AIMessageChunk,
  ChatMessage,
  ChatMessageChunk,
  FunctionMessage,
  FunctionMessageChunk,
  HumanMessage,
  HumanMessageChunk,
  RemoveMessage,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
  type BaseMessage,
} from "@langchain/core/messages";
import { exactMessageDict, messageToDict, serialize } from "../../src/common/serde";

/** Written alone and inside a state, the message reads exactly as toDict() writes it. */
function expectSameAsToDict(message: BaseMessage): void {
  expect(serialize(message)).toBe(serialize(exactMessageDict(message)));
  expect(serialize({ messages: [message] })).toBe(serialize({ messages: [exactMessageDict(message)] }));
}

const toolCall = {
  name: "search",
  args: { q: "sf", nested: { list: [1, 2, { deep: true }] } },
  id: "t1",
  type: "tool_call" as const,
};

/** Messages as graphs make them, every field LangChain's classes have. */
const common: [string, () => BaseMessage][] = [
  ["human, text", () => new HumanMessage({ content: "hello", id: "h1", name: "ann" })],
  [
    "human, content blocks",
    () =>
      new HumanMessage({
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
        id: "h2",
      }),
  ],
  [
    "ai, tool calls and usage",
    () =>
      new AIMessage({
        content: "",
        id: "a1",
        tool_calls: [toolCall],
        invalid_tool_calls: [{ name: "bad", args: "{", id: "t2", error: "parse", type: "invalid_tool_call" }],
        usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
        response_metadata: { model_name: "m", finish_reason: "tool_calls", tokens: 5n },
        additional_kwargs: { function_call: { name: "f", arguments: "{}" }, empty: null },
      }),
  ],
  ["ai, string", () => new AIMessage("echo: hi")],
  [
    "ai chunk",
    () =>
      new AIMessageChunk({
        content: "par",
        id: "c1",
        tool_call_chunks: [{ name: "search", args: '{"q":', id: "t1", index: 0, type: "tool_call_chunk" }],
      }),
  ],
  [
    "tool, artifact holding a message",
    () =>
      new ToolMessage({
        content: "done",
        tool_call_id: "t1",
        name: "search",
        status: "error",
        artifact: { rows: [1, 2], first: new HumanMessage({ content: "inner", id: "h3" }) },
        id: "m1",
      }),
  ],
  ["system", () => new SystemMessage({ content: "be brief", id: "s1" })],
  ["chat", () => new ChatMessage({ content: "hm", role: "critic", id: "x1" })],
  ["function", () => new FunctionMessage({ content: "{}", name: "f", id: "f1" })],
  ["remove", () => new RemoveMessage({ id: "h1" })],
  ["human chunk", () => new HumanMessageChunk({ content: "a", id: "hc" })],
  ["system chunk", () => new SystemMessageChunk({ content: "b", id: "sc" })],
  ["tool chunk", () => new ToolMessageChunk({ content: "c", tool_call_id: "t9", id: "tc" })],
  ["chat chunk", () => new ChatMessageChunk({ content: "d", role: "critic", id: "cc" })],
  ["function chunk", () => new FunctionMessageChunk({ content: "e", name: "f", id: "fc" })],
  [
    "a field with no prototype",
    () => new AIMessage({ content: "x", additional_kwargs: Object.assign(Object.create(null), { a: 1 }) }),
  ],
];

/** Messages whose dict toDict() changes on the way (escaped, renamed, copied otherwise). */
class RenamingMessage extends AIMessage {
  get lc_aliases(): Record<string, string> {
    return { ...super.lc_aliases, content: "text" };
  }
}
const unusual: [string, () => BaseMessage][] = [
  [
    "a field that looks serialized (escaped)",
    () => new AIMessage({ content: "x", additional_kwargs: { lc: 1, type: "constructor", id: ["x"] } }),
  ],
  ["a field that looks escaped", () => new AIMessage({ content: "x", additional_kwargs: { __lc_escaped__: 1 } })],
  ["a date (copied as an empty object)", () => new AIMessage({ content: "x", response_metadata: { at: new Date(0) } })],
  ["a map", () => new AIMessage({ content: "x", response_metadata: { m: new Map([["a", 1]]) } })],
  ["an object with its own toJSON", () => new AIMessage({ content: "x", response_metadata: { toJSON: () => "own" } })],
  ["a camelCase field (renamed)", () => new HumanMessage({ content: "x", someField: 1 } as never)],
  ["a doubled underscore (renamed)", () => new HumanMessage({ content: "x", a__b: 1 } as never)],
  ["a subclass with its own aliases", () => new RenamingMessage({ content: "x", id: "r1" })],
];

describe("a message's dict", () => {
  test.each(common)("%s: as toDict() writes it, from the message's own fields", (_name, make) => {
    const message = make();
    expectSameAsToDict(message);
    // The quick way: the dict holds the message's own field values, not toDict()'s copies.
    const dict = messageToDict(message);
    const shared = Object.keys(dict).filter(
      (key) => typeof dict[key] === "object" && dict[key] !== null && dict[key] === (message as never)[key],
    );
    expect(shared.length).toBeGreaterThan(0);
  });

  test.each(unusual)("%s: as toDict() writes it, by toDict()", (_name, make) => {
    const message = make();
    expectSameAsToDict(message);
    const dict = messageToDict(message);
    const shared = Object.keys(dict).filter(
      (key) => typeof dict[key] === "object" && dict[key] !== null && dict[key] === (message as never)[key],
    );
    expect(shared).toEqual([]);
  });

  test("a subclass is written by toDict(), even one whose first instance renames nothing", () => {
    class Moody extends AIMessage {
      get lc_aliases(): Record<string, string> {
        return this.id === "rename" ? { ...super.lc_aliases, content: "text" } : super.lc_aliases;
      }
    }
    expectSameAsToDict(new Moody({ content: "x", id: "keep" }));
    expectSameAsToDict(new Moody({ content: "x", id: "rename" }));
  });

  test("a message that holds itself is written as toDict() writes it", () => {
    const message = new AIMessage({ content: "x", additional_kwargs: {} });
    message.additional_kwargs.self = message;
    expectSameAsToDict(message);
  });
});
