/* global document, location, history, URL, URLSearchParams */
// The browser test's page: a small React app on its own origin that talks to the runtime with
// `useStream` from the official SDK, as a chat front end does: it edits a human message or
// regenerates an AI one (a run from the parent of the first checkpoint holding the message) and
// switches between the branches of the thread's history (`fetchStateHistory`). Query parameters: `api` (the
// runtime's URL), `assistant` (graph id), `thread` (kept in the URL so a reload finds the thread)
// and `delay_ms` (context of the steps graph). Bundled for the test by esbuild. Plain JavaScript
// without JSX: DOM types in the TypeScript program would leak into every other file.
import { createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";
import { useStream } from "@langchain/langgraph-sdk/react";

const params = new URLSearchParams(location.search);
const apiUrl = params.get("api") ?? "";
const assistantId = params.get("assistant") ?? "agent";
const delayMs = Number(params.get("delay_ms") ?? 0);

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => part?.text ?? "").join("");
  return "";
}

function App() {
  const [threadId, setThreadId] = useState(params.get("thread"));
  const [error, setError] = useState("");
  const stream = useStream({
    apiUrl,
    assistantId,
    threadId,
    messagesKey: "messages",
    reconnectOnMount: true,
    fetchStateHistory: true,
    onThreadId(id) {
      setThreadId(id);
      const url = new URL(location.href);
      url.searchParams.set("thread", id);
      history.replaceState(null, "", url);
    },
    onError: (cause) => setError(String(cause)),
  });

  const send = (event) => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("text");
    const text = input.value;
    input.value = "";
    if (assistantId === "steps") void stream.submit({}, { context: { delay_ms: delayMs } });
    else void stream.submit({ messages: [{ type: "human", content: text }] });
  };
  const resume = (approved) => void stream.submit(undefined, { command: { resume: { approved } } });
  // Edit (the text field replaces a human message) and regenerate (an AI message): a run from the
  // checkpoint before the message was added.
  const parentOf = (message) => stream.getMessagesMetadata(message)?.firstSeenState?.parent_checkpoint;
  const edit = (message) => {
    const input = document.getElementById("text");
    void stream.submit({ messages: [{ type: "human", content: input.value }] }, { checkpoint: parentOf(message) });
    input.value = "";
  };
  const regenerate = (message) => void stream.submit(undefined, { checkpoint: parentOf(message) });
  const branchSwitcher = (message, index) => {
    const { branch, branchOptions } = stream.getMessagesMetadata(message, index) ?? {};
    if (!branchOptions || branchOptions.length < 2) return null;
    const at = branchOptions.indexOf(branch);
    const go = (step) => stream.setBranch(branchOptions[(at + step + branchOptions.length) % branchOptions.length]);
    return h(
      "span",
      { className: "branches" },
      h("button", { className: "prev", onClick: () => go(-1) }, "<"),
      h("span", { className: "branch" }, `${at + 1}/${branchOptions.length}`),
      h("button", { className: "next", onClick: () => go(1) }, ">"),
    );
  };

  const visited = stream.values?.visited ?? [];
  return h(
    "main",
    null,
    h(
      "ul",
      { id: "messages" },
      stream.messages.map((message, index) =>
        h(
          "li",
          { key: message.id ?? index, className: message.type },
          h("span", { className: "text" }, textOf(message.content)),
          message.type === "human"
            ? h("button", { className: "edit", onClick: () => edit(message) }, "Edit")
            : h("button", { className: "regenerate", onClick: () => regenerate(message) }, "Regenerate"),
          branchSwitcher(message, index),
        ),
      ),
    ),
    h("p", { id: "visited" }, visited.join(",")),
    h("p", { id: "status" }, stream.isLoading ? "loading" : "idle"),
    stream.interrupt
      ? h(
          "section",
          { id: "interrupt" },
          h("pre", null, JSON.stringify(stream.interrupt.value)),
          h("button", { id: "approve", onClick: () => resume(true) }, "Approve"),
        )
      : null,
    error || stream.error ? h("p", { id: "error" }, error || String(stream.error)) : null,
    h(
      "form",
      { onSubmit: send },
      h("input", { name: "text", id: "text" }),
      h("button", { id: "send", type: "submit" }, "Send"),
    ),
  );
}

createRoot(document.getElementById("root")).render(h(App));
