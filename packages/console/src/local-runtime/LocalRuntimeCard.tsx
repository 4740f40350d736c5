import { Link } from "react-router";
import type { LocalRuntime } from "../api/control-plane";

/** The first thing a newcomer after `npm start` needs: the agents already running, one click away. */
export function LocalRuntimeCard({ local }: { local: LocalRuntime }) {
  return (
    <aside className="card local-runtime" aria-labelledby="local-runtime-title">
      <h2 id="local-runtime-title">Local runtime</h2>
      <p>
        The agent runtime started beside this control plane serves its graphs at{" "}
        <span className="url">{local.url}</span>. Its key is known to this console: chat with its agents, step through
        their runs, browse their threads and store.
      </p>
      <Link to={`/deployments/${local.deployment_id}/playground/chat`} className="button">
        Open the playground
      </Link>
    </aside>
  );
}
