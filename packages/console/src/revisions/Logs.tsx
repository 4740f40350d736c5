import { useEffect, useRef, useState } from "react";
import { controlPlane, type LogLine } from "../api/control-plane";
import { ErrorMessage } from "../components/ErrorMessage";
import { LogFilters } from "../components/LogFilters";
import { usePolling } from "../components/usePolling";

/**
 * A revision's build or deploy log: a level filter, a text filter, and follow mode, which keeps
 * reading from where the last page ended (and scrolls to the newest line).
 */
export function Logs(props: { deploymentId: string; revisionId: string; live: boolean }) {
  const [type, setType] = useState<"build" | "deploy">("deploy");
  const [level, setLevel] = useState("debug");
  const [query, setQuery] = useState("");
  const [follow, setFollow] = useState(true);
  const [lines, setLines] = useState<LogLine[]>([]);
  const [error, setError] = useState<unknown>(null);
  const offset = useRef(0);
  const generation = useRef(0);
  const bottom = useRef<HTMLDivElement>(null);

  // A new filter starts from the first line (and is read at once: see usePolling's restartOn).
  const filters = [type, level, query, props.revisionId];
  useEffect(() => {
    generation.current += 1;
    offset.current = 0;
    setLines([]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the filters are the dependencies
  }, filters);

  const readMore = async () => {
    const mine = generation.current;
    try {
      // Up to 10 pages per tick: a long log catches up quickly, a live one is read as it grows.
      for (let page = 0; page < 10; page++) {
        const from = offset.current;
        const result = await controlPlane.logs(props.deploymentId, props.revisionId, type, {
          level,
          query: query || undefined,
          offset: from,
          limit: 500,
        });
        // A newer filter, or another read that got there first: these lines are not ours to add.
        if (mine !== generation.current || offset.current !== from) return;
        offset.current = from + result.logs.length;
        if (result.logs.length) setLines((previous) => [...previous, ...result.logs]);
        setError(null);
        if (result.next_offset === null || result.next_offset === undefined) return;
      }
    } catch (caught) {
      setError(caught);
    }
  };
  usePolling(readMore, props.live || follow ? 1000 : 60_000, true, filters);

  useEffect(() => {
    if (follow) bottom.current?.scrollIntoView?.({ block: "nearest" });
  }, [lines, follow]);

  return (
    <section className="logs" aria-label="Logs">
      <div className="heading">
        <h2>Logs</h2>
        <div className="tabs" role="group" aria-label="Log">
          {(["build", "deploy"] as const).map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={type === name}
              className={type === name ? "tab selected" : "tab"}
              onClick={() => setType(name)}
            >
              {name === "build" ? "Build" : "Deploy"}
            </button>
          ))}
        </div>
      </div>
      <LogFilters {...{ level, setLevel, query, setQuery, follow, setFollow }} />
      <ErrorMessage error={error} />
      <div className="log-lines" role="log" aria-label={`${type} log`}>
        {lines.length === 0 ? <p className="hint">No lines{query || level !== "debug" ? " match" : " yet"}.</p> : null}
        {lines.map((line, index) => (
          <div key={index} className={`line ${line.level}`}>
            <time dateTime={line.timestamp}>{new Date(line.timestamp).toLocaleTimeString()}</time>{" "}
            <span className="level">{line.level.toUpperCase()}</span>{" "}
            <span className="log-message">{line.message}</span>
          </div>
        ))}
        <div ref={bottom} />
      </div>
    </section>
  );
}
