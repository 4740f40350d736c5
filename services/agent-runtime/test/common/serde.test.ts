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
});
