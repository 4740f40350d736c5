// State as the thread-centric protocol shows it (`values`, `updates`, `state.get`): messages in the
// protocol's shape (`human`/`ai`/`tool`/`system`, content as a string or standard content blocks,
// tool calls as `{id, name, args, type: "tool_call"}`), other values as they are.

const MESSAGE_TYPES = new Set(["human", "user", "ai", "assistant", "system", "tool", "function", "remove"]);
const BLOCK_TYPES = new Set([
  "text",
  "reasoning",
  "tool_call",
  "tool_call_chunk",
  "invalid_tool_call",
  "server_tool_call",
  "server_tool_call_chunk",
  "server_tool_call_result",
  "image",
  "audio",
  "video",
  "file",
  "non_standard",
]);

type Dict = Record<string, unknown>;
const isRecord = (value: unknown): value is Dict =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function messageType(value: unknown): string | undefined {
  if (value === "assistant") return "ai";
  if (value === "user") return "human";
  return typeof value === "string" ? value : undefined;
}

function isMessage(value: unknown): value is Dict {
  return isRecord(value) && MESSAGE_TYPES.has(messageType(value.type) ?? "");
}

/** A content block in the protocol's vocabulary; provider-specific blocks become `non_standard`. */
function contentBlock(value: unknown): unknown {
  if (typeof value === "string") return { type: "text", text: value };
  if (!isRecord(value) || typeof value.type !== "string") return undefined;
  if (BLOCK_TYPES.has(value.type)) {
    if (typeof value.mimeType === "string" && value.mime_type === undefined) {
      const { mimeType, ...rest } = value;
      return { ...rest, mime_type: mimeType };
    }
    return value;
  }
  if (value.type === "image_url") {
    const image = value.image_url;
    const url = typeof image === "string" ? image : isRecord(image) ? image.url : undefined;
    return typeof url === "string" ? { type: "image", url } : undefined;
  }
  return { type: "non_standard", value };
}

function content(value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? "";
  const blocks = value.map(contentBlock).filter((block) => block !== undefined);
  return blocks.length ? blocks : value;
}

function toolCalls(value: unknown): { valid: Dict[]; invalid: Dict[] } {
  const valid: Dict[] = [];
  const invalid: Dict[] = [];
  for (const call of Array.isArray(value) ? value : []) {
    if (!isRecord(call)) continue;
    // Both LangChain's shape ({id, name, args}) and OpenAI's ({id, function: {name, arguments}}).
    const fn = isRecord(call.function) ? call.function : undefined;
    const id = typeof call.id === "string" ? call.id : undefined;
    const name = typeof call.name === "string" ? call.name : typeof fn?.name === "string" ? fn.name : undefined;
    let args: unknown = call.args ?? fn?.arguments ?? {};
    if (typeof args === "string") {
      try {
        args = args.trim() ? JSON.parse(args) : {};
      } catch {
        invalid.push({
          ...(id ? { id } : {}),
          name,
          args: call.args ?? fn?.arguments,
          error: "Malformed args.",
          type: "invalid_tool_call",
        });
        continue;
      }
    }
    if (!name || !isRecord(args)) {
      invalid.push({
        ...(id ? { id } : {}),
        ...(name ? { name } : {}),
        error: "Incomplete tool call.",
        type: "invalid_tool_call",
      });
      continue;
    }
    valid.push({ ...(id ? { id } : {}), name, args, type: "tool_call" });
  }
  return { valid, invalid };
}

function message(value: Dict): Dict {
  const type = messageType(value.type)!;
  const out: Dict = { type, content: content(value.content) };
  if (typeof value.id === "string") out.id = value.id;
  if (typeof value.name === "string") out.name = value.name;
  if (isRecord(value.response_metadata) && Object.keys(value.response_metadata).length)
    out.response_metadata = value.response_metadata;
  if (type === "tool") {
    if (typeof value.tool_call_id === "string") out.tool_call_id = value.tool_call_id;
    if (value.status === "success" || value.status === "error") out.status = value.status;
    if ("artifact" in value) out.artifact = value.artifact;
  }
  if (type === "ai") {
    const kwargs = isRecord(value.additional_kwargs) ? value.additional_kwargs : {};
    const raw = Array.isArray(value.tool_calls) && value.tool_calls.length ? value.tool_calls : kwargs.tool_calls;
    const { valid, invalid } = toolCalls(raw);
    const declaredInvalid = Array.isArray(value.invalid_tool_calls) ? value.invalid_tool_calls : [];
    if (valid.length) out.tool_calls = valid;
    if (declaredInvalid.length || invalid.length)
      out.invalid_tool_calls = declaredInvalid.length ? declaredInvalid : invalid;
  }
  return out;
}

/** Plain JSON state (messages already dicts) in the protocol's shape. */
export function protocolState(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (isMessage(item) ? message(item) : protocolState(item)));
  if (!isRecord(value)) return value;
  const out: Dict = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === "__interrupt__") continue;
    out[key] =
      key === "messages" && Array.isArray(entry)
        ? entry.map((item) => (isMessage(item) ? message(item) : item))
        : protocolState(entry);
  }
  return out;
}
