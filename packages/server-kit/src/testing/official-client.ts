import type { Client as SdkClient } from "@langchain/langgraph-sdk";
import type { Client as Sdk1Client } from "@langchain/langgraph-sdk-1";

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

/**
 * The same client from the other live line of the SDK: the newest 1.x (the root's devDependency
 * `@langchain/langgraph-sdk-1`, an npm alias), which still gets releases beside 2.x.
 */
export const { Client: Client1 } = nativeRequire(
  "@langchain/langgraph-sdk-1",
) as typeof import("@langchain/langgraph-sdk-1");
export type Client1 = Sdk1Client;

/** Both live lines, to run one compatibility check per line. */
export const SDK_LINES = [
  {
    line: "2.x",
    version: (nativeRequire("@langchain/langgraph-sdk/package.json") as { version: string }).version,
    Client,
  },
  {
    line: "1.x",
    version: (nativeRequire("@langchain/langgraph-sdk-1/package.json") as { version: string }).version,
    Client: Client1,
  },
] as const;
