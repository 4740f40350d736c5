import { waitUntilOk } from "@lgp/server-kit";
import { DeployerError, type DeployResult, type RevisionLog } from "./deployer";

/**
 * A revision that runs elsewhere (an `external_docker` URL) is deployed once its `/ok` answers;
 * every deployer treats it the same way.
 */
export async function deployExternal(url: string, timeoutMs: number, log: RevisionLog): Promise<DeployResult> {
  log.info(`health-checking ${url}`);
  const base = url.replace(/\/+$/, "");
  if (!(await waitUntilOk(`${base}/ok`, timeoutMs))) throw new DeployerError(`${base}/ok did not answer 200 in time`);
  return { url };
}

/** Whether the agent runtime at `url` is serving (its `/ok` answers within 2 s). */
export async function healthAt(url: string): Promise<"healthy" | "unhealthy"> {
  return (await waitUntilOk(`${url.replace(/\/+$/, "")}/ok`, 2000)) ? "healthy" : "unhealthy";
}
