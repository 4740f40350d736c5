// What a log line says of an error a pg pool emits for an idle connection (PostgreSQL restarted, a
// backend terminated): its message and code. The error itself carries the pg client, whose prepared
// statements' SQL would make each line kilobytes long, once per connection lost.
export function poolErrorFields(error: Error): { err: { message: string; code?: string } } {
  const code = (error as { code?: unknown }).code;
  return { err: { message: error.message, ...(typeof code === "string" ? { code } : {}) } };
}
