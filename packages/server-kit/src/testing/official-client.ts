import type { Client as SdkClient } from "@langchain/langgraph-sdk";

// The official client @langchain/langgraph-sdk, loaded by Node itself: its CommonJS build requires
// ESM-only packages (p-retry), which Node 20.19+ loads natively but jest's module registry cannot;
// so it is loaded with Node's own require, outside jest's registry (jest replaces
// `module.createRequire`, not `process.getBuiltinModule`).
const nodeModule = (
  process as unknown as { getBuiltinModule(id: string): typeof import("node:module") }
).getBuiltinModule("node:module");
const nativeRequire = nodeModule.createRequire(__filename);

export const { Client } = nativeRequire("@langchain/langgraph-sdk") as typeof import("@langchain/langgraph-sdk");
export type Client = SdkClient;
