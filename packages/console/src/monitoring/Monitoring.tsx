import { useCallback, useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { controlPlane, type Deployment } from "../api/control-plane";
import { session } from "../api/session";
import { ErrorMessage } from "../components/ErrorMessage";
import { usePolling } from "../components/usePolling";
import { useTitle } from "../components/useTitle";
import { KeyForm } from "../playground/Playground";
import { isRefusal } from "../playground/runtime";
import { DeploymentLogs } from "./DeploymentLogs";
import { RunCharts, Summary } from "./RunCharts";
import { readRunMonitoring, type MonitoringWindow, type RunMonitoring } from "./runtime-monitoring";

const WINDOWS: [MonitoringWindow, string][] = [
  ["1h", "Last hour"],
  ["24h", "Last day"],
];

/**
 * A deployment's health: its runs over the last hour or day (from its runtime, with the runtime
 * key the playground uses) and its server logs (from the control plane).
 */
export function Monitoring() {
  const { deploymentId = "" } = useParams();
  const [deployment, setDeployment] = useState<Deployment | null>(null);
  const [error, setError] = useState<unknown>(null);
  useTitle(deployment ? `Monitoring: ${deployment.name}` : "Monitoring");
  useEffect(() => {
    controlPlane.getDeployment(deploymentId).then(setDeployment, setError);
  }, [deploymentId]);

  if (!deployment) return error ? <ErrorMessage error={error} /> : <p aria-busy="true">Loading…</p>;
  const apiUrl = deployment.source_config.custom_url?.replace(/\/+$/, "") ?? null;
  return (
    <section className="monitoring" aria-labelledby="monitoring-title">
      <p>
        <Link to={`/deployments/${deploymentId}`}>← {deployment.name}</Link>
      </p>
      <div className="heading">
        <h1 id="monitoring-title">Monitoring</h1>
        {apiUrl ? <span className="url">{apiUrl}</span> : null}
      </div>
      {apiUrl ? (
        <RunHealth deploymentId={deploymentId} apiUrl={apiUrl} />
      ) : (
        <p role="alert">This deployment has no runtime URL yet: wait for a revision to be DEPLOYED.</p>
      )}
      <DeploymentLogs deploymentId={deploymentId} />
    </section>
  );
}

function RunHealth({ deploymentId, apiUrl }: { deploymentId: string; apiUrl: string }) {
  const [runtimeKey, setRuntimeKey] = useState(session.runtimeKey(deploymentId));
  const [refused, setRefused] = useState(false);
  const [span, setSpan] = useState<MonitoringWindow>("1h");
  const [monitoring, setMonitoring] = useState<RunMonitoring | null>(null);
  const [error, setError] = useState<unknown>(null);
  const chooseKey = (key: string | null) => {
    if (key) session.setRuntimeKey(deploymentId, key);
    else session.forgetRuntimeKey(deploymentId);
    setRefused(false);
    setRuntimeKey(key);
  };

  const load = useCallback(async () => {
    if (!runtimeKey) return;
    try {
      const next = await readRunMonitoring(apiUrl, runtimeKey, span);
      setMonitoring(next);
      setError(null);
    } catch (caught) {
      if (isRefusal(caught)) setRefused(true);
      setError(caught);
    }
  }, [apiUrl, runtimeKey, span]);
  // The last hour moves by the minute; the last day by the quarter of an hour.
  usePolling(load, span === "1h" ? 15_000 : 60_000, !!runtimeKey && !refused, [span, runtimeKey]);

  if (!runtimeKey || refused) return <KeyForm onKey={chooseKey} refused={refused} />;
  const shown = monitoring?.window === span ? monitoring : null;
  return (
    <section className="run-health" aria-labelledby="runs-title">
      <div className="heading">
        <h2 id="runs-title">Runs</h2>
        <div className="tabs" role="group" aria-label="Window">
          {WINDOWS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={span === value}
              className={span === value ? "tab selected" : "tab"}
              onClick={() => setSpan(value)}
            >
              {label}
            </button>
          ))}
        </div>
        <button type="button" className="secondary small" onClick={() => void load()}>
          Refresh
        </button>
        <button type="button" className="secondary small" onClick={() => chooseKey(null)}>
          Change key
        </button>
      </div>
      <ErrorMessage error={error} />
      {shown ? (
        <>
          <Summary monitoring={shown} />
          <RunCharts monitoring={shown} />
        </>
      ) : error ? null : (
        <p aria-busy="true">Loading the runs…</p>
      )}
    </section>
  );
}
