import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { RunnableConfig } from "@langchain/core/runnables";

type PutArgs = Parameters<PostgresSaver["put"]>;

/**
 * The official PostgreSQL saver, recording the run (and its graph and assistant) in every
 * checkpoint's metadata, as the hosted server does: history can be filtered by run, and a rolled
 * back run's checkpoints found.
 */
export class RuntimeCheckpointer extends PostgresSaver {
  override async put(config: RunnableConfig, checkpoint: PutArgs[1], metadata: PutArgs[2], newVersions: PutArgs[3]) {
    const configurable = config.configurable ?? {};
    const extra: Record<string, unknown> = {};
    for (const key of ["run_id", "graph_id", "assistant_id"] as const) {
      if (typeof configurable[key] === "string") extra[key] = configurable[key];
    }
    return super.put(config, checkpoint, { ...metadata, ...extra }, newVersions);
  }
}
