import { AIMessage, AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { serialize } from "../../src/common/serde";

describe("messages on the wire", () => {
  test("are their own fields and type, as the official server writes them (nothing filled in)", () => {
    const wire = JSON.parse(
      serialize({
        messages: [
          new HumanMessage({ content: "SF", id: "h1" }),
          new AIMessage({ content: "sunny", id: "a1" }),
          new AIMessageChunk({ content: "partial", id: "c1" }),
        ],
      }),
    );
    expect(wire.messages).toEqual([
      { type: "human", content: "SF", id: "h1", additional_kwargs: {}, response_metadata: {} },
      {
        type: "ai",
        content: "sunny",
        id: "a1",
        tool_calls: [],
        invalid_tool_calls: [],
        additional_kwargs: {},
        response_metadata: {},
      },
      {
        type: "ai",
        content: "partial",
        id: "c1",
        tool_calls: [],
        invalid_tool_calls: [],
        tool_call_chunks: [],
        additional_kwargs: {},
        response_metadata: {},
      },
    ]);
  });

  test("plain values, bigints and errors pass through readably", () => {
    expect(JSON.parse(serialize({ n: 10n, e: new TypeError("bad"), v: [1, null] }))).toEqual({
      n: "10",
      e: { error: "TypeError", message: "bad" },
      v: [1, null],
    });
  });

  test("values that carry messages elsewhere are written as JSON.stringify would, messages as dicts", () => {
    const message = new AIMessage({ content: "hi", id: "a1" });
    class Holder {
      constructor(readonly inner: unknown) {}
    }
    const wire = JSON.parse(
      serialize({
        at: new Date(0),
        viaToJSON: { toJSON: () => ({ message }) },
        instance: new Holder([message]),
        sparse: [undefined, () => 1],
        skipped: undefined,
      }),
    );
    expect(wire).toEqual({
      at: "1970-01-01T00:00:00.000Z",
      viaToJSON: { message: expect.objectContaining({ type: "ai", content: "hi", id: "a1" }) },
      instance: { inner: [expect.objectContaining({ type: "ai", content: "hi" })] },
      sparse: [null, null],
    });
  });

  test("what a message carries is written the same way: messages inside it as dicts, bigints as strings", async () => {
    const { ToolMessage } = await import("@langchain/core/messages");
    const tool = new ToolMessage({
      content: "done",
      tool_call_id: "t1",
      id: "m1",
      artifact: [new HumanMessage({ content: "inner", id: "h2" })],
      response_metadata: { tokens: 5n },
    });
    const wire = JSON.parse(
      serialize({ messages: [tool], boxed: [new String("ab"), new Number(3), new Boolean(true)] }),
    );
    expect(wire.messages[0]).toMatchObject({
      type: "tool",
      content: "done",
      artifact: [{ type: "human", content: "inner", id: "h2" }],
      response_metadata: { tokens: "5" },
    });
    expect(wire.boxed).toEqual(["ab", 3, true]);
    // toJSON is asked once, as JSON.stringify asks it: what it answers is written as it is.
    const inner = { toJSON: () => "inner's own form" };
    expect(JSON.parse(serialize({ outer: { toJSON: () => inner } }))).toEqual({ outer: {} });
  });

  test("leaves the value it writes untouched, and refuses a circular one as JSON.stringify does", () => {
    const value = { messages: [new HumanMessage({ content: "SF", id: "h1" })] };
    serialize(value);
    expect(value.messages[0]).toBeInstanceOf(HumanMessage);
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    expect(() => serialize(circular)).toThrow(TypeError);
    const shared = { n: 1 };
    expect(JSON.parse(serialize({ x: shared, y: [shared] }))).toEqual({ x: { n: 1 }, y: [{ n: 1 }] });
  });
});
