import { refusalOf, waitUntilOk, type OutboundFetch } from "@lgp/server-kit";
import { DeployerError, type DeployResult, type RevisionLog } from "./deployer";

/**
 * A revision that runs elsewhere (an `external_docker` URL) is deployed once its `/ok` answers;
 * every deployer treats it the same way.
 */
export async function deployExternal(
  url: string,
  timeoutMs: number,
  log: RevisionLog,
  outbound: OutboundFetch = fetch,
): Promise<DeployResult> {
  log.info(`health-checking ${url}`);
  const base = url.replace(/\/+$/, "");
  // The URL came from a tenant: judged by the outbound policy (OUTBOUND_ALLOW) like every such call.
  const refused = await outbound(`${base}/ok`, { signal: AbortSignal.timeout(2000) }).then(
    () => undefined,
    (error: unknown) => refusalOf(error),
  );
  if (refused) throw new DeployerError(`${base} is refused: ${refused} (OUTBOUND_ALLOW can allow it)`);
  if (!(await waitUntilOk(`${base}/ok`, timeoutMs, undefined, outbound)))
    throw new DeployerError(`${base}/ok did not answer 200 in time`);
  return { url };
}

/** Whether the agent runtime at `url` is serving (its `/ok` answers within 2 s). */
export async function healthAt(url: string, outbound: OutboundFetch = fetch): Promise<"healthy" | "unhealthy"> {
  return (await waitUntilOk(`${url.replace(/\/+$/, "")}/ok`, 2000, undefined, outbound)) ? "healthy" : "unhealthy";
}
