import { useEffect, useRef, useState } from "react";
import { controlPlane, type CliLogLine } from "../api/control-plane";
import { ErrorMessage } from "../components/ErrorMessage";
import { LogFilters } from "../components/LogFilters";
import { usePolling } from "../components/usePolling";

/** Lines shown at first (the newest), and kept at most while following (the oldest go). */
const FIRST = 200;
const KEPT = 2000;
const PAGE = 500;
/**
 * Each follow read asks again for this much before the newest line it has: a line stored late
 * (a batch written after a newer one, a pod's log read after a reconnection) still comes, and the
 * line ids, the same in every answer, keep each line shown once.
 */
const OVERLAP_MS = 60_000;
const FOLLOW_MS = 1500;

const order = (a: CliLogLine, b: CliLogLine) =>
  a.timestamp === b.timestamp ? Number(a.id) - Number(b.id) : a.timestamp < b.timestamp ? -1 : 1;
const levelClass = (level: CliLogLine["level"]) => (level === "WARNING" ? "warn" : level.toLowerCase());

/**
 * The deployment's server logs: its runtimes' output as the control plane collects it into the
 * deploy log of every revision (`POST /v1/projects/{id}/deploy_logs`, as `langgraph deploy logs`
 * reads it), with a level filter, a text filter and follow mode.
 */
export function DeploymentLogs({ deploymentId }: { deploymentId: string }) {
  const [level, setLevel] = useState("debug");
  const [query, setQuery] = useState("");
  const [follow, setFollow] = useState(true);
  const [lines, setLines] = useState<CliLogLine[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [ready, setReady] = useState(false);
  // The ids shown, with their times: enough to show each line once across overlapping reads.
  const seen = useRef(new Map<string, string>());
  const newest = useRef<string | null>(null);
  const loaded = useRef(false);
  const generation = useRef(0);
  const box = useRef<HTMLDivElement>(null);

  // A new filter starts again from the newest lines (read at once: see usePolling's restartOn).
  const filters = [deploymentId, level, query];
  useEffect(() => {
    generation.current += 1;
    seen.current = new Map();
    newest.current = null;
    loaded.current = false;
    setReady(false);
    setLines([]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the filters are the dependencies
  }, filters);

  const add = (mine: number, found: CliLogLine[]) => {
    if (mine !== generation.current) return;
    const fresh = found.filter((line) => !seen.current.has(line.id));
    for (const line of fresh) {
      seen.current.set(line.id, line.timestamp);
      if (!newest.current || line.timestamp > newest.current) newest.current = line.timestamp;
    }
    // Ids older than any later read can return again are let go (the map stays near KEPT).
    if (seen.current.size > KEPT && newest.current) {
      const cutoff = new Date(Date.parse(newest.current) - 2 * OVERLAP_MS).toISOString();
      for (const [id, timestamp] of seen.current) if (timestamp < cutoff) seen.current.delete(id);
    }
    if (fresh.length) setLines((previous) => [...previous, ...fresh].sort(order).slice(-KEPT));
  };

  const read = async () => {
    const mine = generation.current;
    const filter = { level, query: query || null };
    try {
      if (!loaded.current) {
        const page = await controlPlane.deploymentLogs(deploymentId, { ...filter, order: "desc", limit: FIRST });
        add(mine, page.logs);
        if (mine === generation.current) {
          loaded.current = true;
          setReady(true);
        }
      } else if (follow) {
        const since = newest.current ? new Date(Date.parse(newest.current) - OVERLAP_MS).toISOString() : null;
        // The newest lines since then, one read a tick: in a burst of more than PAGE lines between
        // two reads the view keeps up with the newest and leaves the rest to the full deploy log.
        const result = await controlPlane.deploymentLogs(deploymentId, {
          ...filter,
          order: "desc",
          start_time: since,
          limit: PAGE,
        });
        add(mine, result.logs);
      }
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  };
  usePolling(read, follow ? FOLLOW_MS : 60_000, true, filters);

  // Following keeps the newest line in view, scrolling the log alone (not the page and its charts).
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines, follow]);

  return (
    <section className="logs" aria-labelledby="server-logs-title">
      <div className="heading">
        <h2 id="server-logs-title">Server logs</h2>
      </div>
      <LogFilters {...{ level, setLevel, query, setQuery, follow, setFollow }} />
      <ErrorMessage error={error} />
      <div className="log-lines" role="log" aria-label="Server log" ref={box}>
        {lines.length === 0 ? (
          <p className="hint">{ready ? `No lines${query || level !== "debug" ? " match" : " yet"}.` : "Loading…"}</p>
        ) : null}
        {lines.map((line) => (
          <div key={line.id} className={`line ${levelClass(line.level)}`} data-id={line.id}>
            <time dateTime={line.timestamp}>{new Date(line.timestamp).toLocaleTimeString()}</time>{" "}
            <span className="level">{line.level}</span> <span className="log-message">{line.message}</span>
          </div>
        ))}
      </div>
    </section>
  );
}
