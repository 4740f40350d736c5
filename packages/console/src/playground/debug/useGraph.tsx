import { useEffect, useState } from "react";
import type { AssistantGraph } from "@langchain/langgraph-sdk";
import { SelectField } from "../../components/SelectField";
import { useRuntime } from "../runtime";

/** How deep subgraphs are drawn: `xray` of `/assistants/{id}/graph` (false, a depth, or all). */
export type Xray = "collapsed" | "1" | "all";
const XRAY_OPTIONS: Xray[] = ["collapsed", "1", "all"];
const XRAY_LABELS: Record<Xray, string> = {
  collapsed: "collapsed",
  "1": "expanded one level",
  all: "expanded fully (xray)",
};

const xrayParam = (xray: Xray): boolean | number => (xray === "collapsed" ? false : xray === "all" ? true : 1);

/** The assistant's graph with its subgraphs drawn as deep as asked; read again when that changes. */
export function useGraph(assistantId: string, xray: Xray) {
  const { client } = useRuntime();
  const [graph, setGraph] = useState<AssistantGraph | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    client.assistants.getGraph(assistantId, { xray: xrayParam(xray), signal: controller.signal }).then(
      (answer) => {
        setGraph(answer);
        setError(null);
      },
      (caught) => {
        if (!controller.signal.aborted) setError(caught);
      },
    );
    return () => controller.abort();
  }, [client, assistantId, xray]);
  return { graph, error };
}

/** The "Subgraphs" select: collapsed, or expanded with xray. */
export function SubgraphsSelect({ value, onChange }: { value: Xray; onChange: (value: Xray) => void }) {
  return (
    <SelectField
      label="Subgraphs"
      value={value}
      options={XRAY_OPTIONS}
      optionLabel={(option) => XRAY_LABELS[option as Xray]}
      onChange={(option) => onChange(option as Xray)}
    />
  );
}
