import { useEffect, useMemo, useState } from "react";
import { Client } from "@langchain/langgraph-sdk";
import { Link, Navigate, NavLink, Route, Routes, useParams, useSearchParams } from "react-router";
import { controlPlane, type Deployment } from "../api/control-plane";
import { session } from "../api/session";
import { localRuntime } from "../local-runtime/useLocalRuntime";
import { ErrorMessage } from "../components/ErrorMessage";
import { Field } from "../components/Field";
import { SelectField } from "../components/SelectField";
import { Assistants } from "./Assistants";
import { Chat } from "./Chat";
import { GraphView } from "./GraphView";
import { Debugger } from "./debug/Debugger";
import { Threads } from "./Threads";
import { StoreBrowser } from "./store/StoreBrowser";
import { isRefusal, RuntimeContext, useAssistants, useRuntime } from "./runtime";
import { useTitle } from "../components/useTitle";

/**
 * A deployment's agents, through its own runtime URL and key with the official client, as any
 * front end talks to them. The key is the one the control plane showed once (kept in this tab),
 * or pasted here.
 */
export function Playground() {
  const { deploymentId = "" } = useParams();
  const [deployment, setDeployment] = useState<Deployment | null>(null);
  const [error, setError] = useState<unknown>(null);
  useTitle(deployment ? `Playground: ${deployment.name}` : "Playground");
  const [runtimeKey, setRuntimeKey] = useState(session.runtimeKey(deploymentId));
  const [refused, setRefused] = useState(false);
  const chooseKey = (key: string | null) => {
    if (key) session.setRuntimeKey(deploymentId, key);
    else session.forgetRuntimeKey(deploymentId);
    setRefused(false);
    setRuntimeKey(key);
  };
  // No key in this tab yet: the local runtime's the control plane hands over, when this is it.
  const [askingLocal, setAskingLocal] = useState(!runtimeKey);
  useEffect(() => {
    controlPlane.getDeployment(deploymentId).then(setDeployment, setError);
    if (session.runtimeKey(deploymentId)) return;
    localRuntime()
      .then((local) => {
        if (local?.deployment_id === deploymentId) setRuntimeKey(local.api_key);
      })
      .catch(() => undefined) // the key form is the way then
      .finally(() => setAskingLocal(false));
  }, [deploymentId]);
  const apiUrl = deployment?.source_config.custom_url?.replace(/\/+$/, "") ?? null;
  const client = useMemo(
    () => (apiUrl && runtimeKey ? new Client({ apiUrl, apiKey: runtimeKey }) : null),
    [apiUrl, runtimeKey],
  );

  if (!deployment || (askingLocal && !runtimeKey))
    return error ? <ErrorMessage error={error} /> : <p aria-busy="true">Loading…</p>;
  const back = (
    <p>
      <Link to={`/deployments/${deploymentId}`}>← {deployment.name}</Link>
    </p>
  );
  if (!apiUrl)
    return (
      <section>
        {back}
        <p role="alert">This deployment has no runtime URL yet: wait for a revision to be DEPLOYED.</p>
      </section>
    );
  if (!client || !runtimeKey || refused)
    return (
      <section>
        {back}
        <KeyForm onKey={chooseKey} refused={refused} />
      </section>
    );
  return (
    <RuntimeContext.Provider value={{ client, deploymentId }}>
      <section className="playground" aria-labelledby="playground-title">
        {back}
        <div className="heading">
          <h1 id="playground-title">Playground</h1>
          <span className="url">{apiUrl}</span>
          <button type="button" className="secondary small" onClick={() => chooseKey(null)}>
            Change key
          </button>
        </div>
        <PlaygroundBody onKeyRefused={() => setRefused(true)} />
      </section>
    </RuntimeContext.Provider>
  );
}

function PlaygroundBody({ onKeyRefused }: { onKeyRefused: () => void }) {
  const { assistants, error, reload } = useAssistants();
  useEffect(() => {
    if (isRefusal(error)) onKeyRefused();
  }, [error, onKeyRefused]);
  const [params, setParams] = useSearchParams();
  const selected = params.get("assistant") ?? assistants?.[0]?.assistant_id ?? null;
  const assistant = assistants?.find((item) => item.assistant_id === selected) ?? null;
  const { deploymentId } = useRuntime();
  // Absolute: links relative to a splat route resolve against the whole current path.
  const base = `/deployments/${deploymentId}/playground/`;
  const tabs = [
    ["chat", "Chat"],
    ["assistants", "Assistants"],
    ["threads", "Threads"],
    ["graph", "Graph"],
    ["debug", "Debug"],
    ["store", "Store"],
  ];
  return (
    <>
      <ErrorMessage error={error} />
      <div className="toolbar">
        <SelectField
          label="Assistant"
          value={selected ?? ""}
          options={(assistants ?? []).map((item) => item.assistant_id)}
          optionLabel={(id) => {
            const item = assistants?.find((candidate) => candidate.assistant_id === id);
            return item ? `${item.name} (${item.graph_id})` : id;
          }}
          onChange={(value) => {
            const next = new URLSearchParams(params);
            next.set("assistant", value);
            next.delete("thread");
            setParams(next);
          }}
        />
        <nav aria-label="Playground" className="tabs">
          {tabs.map(([path, label]) => (
            <NavLink key={path} to={{ pathname: `${base}${path}`, search: params.toString() }} end>
              {label}
            </NavLink>
          ))}
        </nav>
      </div>
      {assistant ? (
        <Routes>
          <Route index element={<Navigate to={{ pathname: `${base}chat`, search: params.toString() }} replace />} />
          <Route path="chat" element={<Chat key={assistant.assistant_id} assistant={assistant} />} />
          <Route
            path="assistants"
            element={<Assistants key={assistant.assistant_id} assistant={assistant} onChanged={reload} />}
          />
          <Route path="threads" element={<Threads key={assistant.assistant_id} assistant={assistant} />} />
          <Route path="graph" element={<GraphView key={assistant.assistant_id} assistant={assistant} />} />
          <Route path="debug" element={<Debugger key={assistant.assistant_id} assistant={assistant} />} />
          <Route path="store" element={<StoreBrowser />} />
        </Routes>
      ) : assistants ? (
        <p className="empty">This runtime has no assistants.</p>
      ) : (
        <p aria-busy="true">Loading assistants…</p>
      )}
    </>
  );
}

/** Asks for the runtime's key; `refused`: the key the tab had was refused, and it says so first. */
export function KeyForm({ onKey, refused = false }: { onKey: (key: string) => void; refused?: boolean }) {
  const [key, setKey] = useState("");
  return (
    <>
      {refused ? (
        <p role="alert" className="error">
          The runtime refused the key this tab had (a rotated key works once its revision is DEPLOYED).
        </p>
      ) : null}
      <form
        className="card form"
        aria-label="Runtime key"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) onKey(key.trim());
        }}
      >
        <h1>The runtime's key</h1>
        <p>
          The runtime asks for the key the control plane showed when this deployment was created (or its key was
          rotated). Paste it here; it stays in this browser tab. Lost it? Rotate it on the deployment's page.
        </p>
        <Field label="Runtime API key" type="password" value={key} onChange={setKey} autoComplete="off" />
        <div className="actions">
          <button type="submit">Use this key</button>
        </div>
      </form>
    </>
  );
}
