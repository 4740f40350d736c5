import { createContext, useCallback, useContext, useEffect, useState } from "react";
import type { Assistant, Client } from "@langchain/langgraph-sdk";

export interface Runtime {
  client: Client;
  deploymentId: string;
}

export const RuntimeContext = createContext<Runtime | null>(null);

export function useRuntime(): Runtime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error("useRuntime outside the playground");
  return runtime;
}

/** The runtime's key was refused (wrong, or rotated away): the playground asks for another. */
export const isRefusal = (error: unknown): boolean => {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
};

/** The runtime's assistants (the 100 newest), and a way to read them again after an edit. */
export function useAssistants() {
  const { client } = useRuntime();
  const [assistants, setAssistants] = useState<Assistant[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      setAssistants(await client.assistants.search({ limit: 100, sortBy: "created_at", sortOrder: "desc" }));
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [client]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { assistants, error, reload };
}

/** Pretty JSON for display; text stays text. */
export const pretty = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value, null, 2));

/** The text of a message's content, string or content blocks. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part === "string" ? part : ((part as { text?: string })?.text ?? "")))
      .join("");
  return "";
}
