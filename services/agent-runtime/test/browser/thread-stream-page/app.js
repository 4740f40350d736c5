/* global document, location, history, URL, URLSearchParams */
// The ThreadStream browser test's page: plain DOM on its own origin, driving the runtime with the
// official client's thread-centric protocol (`client.threads.stream()`, over SSE). It renders the
// thread's values, the root lifecycle and interrupts from one subscription, the streamed messages
// and tool calls from the projections; the thread id is kept in the URL, so a reload rejoins the
// thread (and a run still in flight). Query: `api`, `assistant`, `thread`, `delay_ms`.
import { Client } from "@langchain/langgraph-sdk-1";

const params = new URLSearchParams(location.search);
const assistantId = params.get("assistant") ?? "agent";
const client = new Client({ apiUrl: params.get("api") ?? "" });
const known = params.get("thread");
const thread = known ? client.threads.stream(known, { assistantId }) : client.threads.stream({ assistantId });
const url = new URL(location.href);
url.searchParams.set("thread", thread.threadId);
history.replaceState(null, "", url);

const element = (id) => document.getElementById(id);
const add = (id, text) => {
  const item = document.createElement("li");
  item.textContent = text;
  element(id).append(item);
  return item;
};
const fail = (error) => (element("error").textContent = String(error));
const textOf = (message) => {
  const content = message?.kwargs?.content ?? message?.content;
  return typeof content === "string" ? content : (content ?? []).map((part) => part?.text ?? "").join("");
};

let pending;
function render(event) {
  const { namespace, data } = event.params;
  if (event.method === "values" && namespace.length === 0) {
    element("values").replaceChildren();
    for (const message of data.messages ?? []) add("values", textOf(message));
    element("visited").textContent = (data.visited ?? []).join(",");
  } else if (event.method === "lifecycle" && namespace.length === 0) {
    element("status").textContent = data.event;
    if (data.event === "running") element("interrupt").hidden = true;
  } else if (event.method === "input.requested") {
    pending = { interrupt_id: data.interrupt_id, namespace };
    element("question").textContent = data.payload?.question ?? "";
    element("interrupt").hidden = false;
  }
}

async function follow() {
  const handle = await thread.subscribe({ channels: ["values", "lifecycle", "input"] });
  // A subscription pauses when a run ends, and resumes when the next one starts.
  for (;;) {
    for await (const event of handle) render(event);
    if (!handle.isPaused) return;
    await handle.waitForResume();
  }
}

async function showMessages() {
  for await (const message of thread.messages) {
    const item = add("messages", "");
    for await (const delta of message.text) item.textContent += delta;
    item.className = "done";
  }
}

async function showToolCalls() {
  // One line per call id, as a chat UI keys them (the projection may hand the same call over twice).
  for await (const call of thread.toolCalls) {
    const item = element(`call-${call.callId}`) ?? add("tools", "");
    item.id = `call-${call.callId}`;
    item.textContent = `${call.name} ${JSON.stringify(call.input)}`;
    item.textContent += ` -> ${JSON.stringify(await call.output)}`;
  }
}

follow().catch(fail);
showMessages().catch(fail);
showToolCalls().catch(fail);

element("send").addEventListener("click", () => {
  const text = element("text").value;
  const context = params.has("delay_ms") ? { delay_ms: Number(params.get("delay_ms")) } : undefined;
  thread.run
    .start({ input: { messages: [{ type: "human", content: text }] }, ...(context ? { context } : {}) })
    .catch(fail);
});
element("approve").addEventListener("click", () => {
  element("interrupt").hidden = true;
  thread.input.respond({ ...pending, response: { approved: true } }).catch(fail);
});
