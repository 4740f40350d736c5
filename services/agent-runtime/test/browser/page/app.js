/* global document, location, history, URL, URLSearchParams */
// The browser test's page: a small React app on its own origin that talks to the runtime with
// `useStream` from the official SDK, as a chat front end does. Query parameters: `api` (the
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

  const visited = stream.values?.visited ?? [];
  return h(
    "main",
    null,
    h(
      "ul",
      { id: "messages" },
      stream.messages.map((message, index) =>
        h("li", { key: message.id ?? index, className: message.type }, textOf(message.content)),
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
