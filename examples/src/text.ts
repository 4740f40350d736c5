// A message's text, whether its content is a string or content blocks (`[{type: "text", text}]`,
// as chat front ends send it).
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === "string"
          ? part
          : (part as { type?: string }).type === "text"
            ? ((part as { text?: string }).text ?? "")
            : "",
      )
      .join("");
  }
  return "";
}
