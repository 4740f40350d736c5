/* global document, location, URLSearchParams */
// The ThreadStream browser test's page: plain DOM on its own origin, driving the runtime with the
// official client's thread-centric protocol (`client.threads.stream()`, over SSE) and rendering
// its projections: messages as they stream, tool calls with their output, and the values.
import { Client } from "@langchain/langgraph-sdk-1";

const params = new URLSearchParams(location.search);
const client = new Client({ apiUrl: params.get("api") ?? "" });
const thread = client.threads.stream({ assistantId: params.get("assistant") ?? "agent" });

const list = (id) => document.getElementById(id);
const add = (id, text) => {
  const item = document.createElement("li");
  item.textContent = text;
  list(id).append(item);
  return item;
};

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
    const item = document.getElementById(`call-${call.callId}`) ?? add("tools", "");
    item.id = `call-${call.callId}`;
    item.textContent = `${call.name} ${JSON.stringify(call.input)}`;
    item.textContent += ` -> ${JSON.stringify(await call.output)}`;
  }
}

document.getElementById("send").addEventListener("click", async () => {
  const text = document.getElementById("text").value;
  try {
    void showMessages();
    void showToolCalls();
    await thread.run.start({ input: { messages: [{ type: "human", content: text }] } });
    const output = await thread.output;
    document.getElementById("status").textContent = `done ${output?.messages?.length ?? 0}`;
  } catch (error) {
    document.getElementById("error").textContent = String(error);
  }
});
