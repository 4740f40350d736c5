/* global document, location, URLSearchParams */
// The generative UI test's page: a chat on its own origin with `useStream`, rendering each UI
// message the graph pushed (`values.ui`) under the message it belongs to, with the SDK's
// LoadExternalComponent (which asks the runtime's /ui/{graph} with the stream's key, then loads
// the files, which need none).
import { createElement as h } from "react";
import { createRoot } from "react-dom/client";
import { useStream } from "@langchain/langgraph-sdk/react";
import { LoadExternalComponent } from "@langchain/langgraph-sdk/react-ui";

const params = new URLSearchParams(location.search);

function App() {
  const stream = useStream({
    apiUrl: params.get("api") ?? "",
    apiKey: params.get("key") ?? undefined,
    assistantId: "weather",
    messagesKey: "messages",
  });
  const ui = stream.values?.ui ?? [];
  const send = () => void stream.submit({ messages: [{ type: "human", content: params.get("ask") ?? "weather?" }] });
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
          h("span", null, typeof message.content === "string" ? message.content : ""),
          ui
            .filter((item) => item.metadata?.message_id === message.id)
            .map((item) => h(LoadExternalComponent, { key: item.id, stream, message: item, fallback: "loading" })),
        ),
      ),
    ),
    h("button", { id: "send", onClick: send }, "Send"),
  );
}

createRoot(document.getElementById("root")).render(h(App));
