import { useCallback, useEffect, useState } from "react";
import type { Assistant, AssistantVersion } from "@langchain/langgraph-sdk";
import { ErrorMessage } from "../components/ErrorMessage";
import { Field } from "../components/Field";
import { formatTime } from "../components/time";
import { pretty, useRuntime } from "./runtime";

/** Parses a JSON field; says which field when it does not parse. */
function parseJson(label: string, text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error();
    return value as Record<string, unknown>;
  } catch {
    throw new Error(`${label} must be a JSON object.`);
  }
}

export function Assistants(props: { assistant: Assistant; onChanged: () => Promise<void> }) {
  const { client } = useRuntime();
  const { assistant } = props;
  const [form, setForm] = useState({ name: "", description: "", config: "", context: "" });
  const [versions, setVersions] = useState<AssistantVersion[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [newName, setNewName] = useState("");

  const { assistant_id: assistantId, version } = assistant;
  const loadVersions = useCallback(async () => {
    try {
      setVersions(await client.assistants.getVersions(assistantId, { limit: 50 }));
    } catch (caught) {
      setError(caught);
    }
  }, [client, assistantId]);
  // The form shows the assistant as stored: again after a save or "set latest" (a new version),
  // not on every re-read, which would drop what is being typed.
  useEffect(() => {
    setForm({
      name: assistant.name,
      description: assistant.description ?? "",
      config: Object.keys(assistant.config ?? {}).length ? pretty(assistant.config) : "",
      context: Object.keys(assistant.context ?? {}).length ? pretty(assistant.context) : "",
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the assistant's identity and version, not the object
  }, [assistantId, version]);
  useEffect(() => {
    void loadVersions();
  }, [loadVersions, version]);

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    try {
      const updated = await client.assistants.update(assistant.assistant_id, {
        name: form.name,
        description: form.description,
        config: parseJson("Config", form.config),
        context: parseJson("Context", form.context),
      });
      setSaved(`Saved as version ${updated.version}.`);
      await props.onChanged();
      await loadVersions();
    } catch (caught) {
      setError(caught);
    }
  };
  const setLatest = async (version: number) => {
    setError(null);
    try {
      await client.assistants.setLatest(assistant.assistant_id, version);
      setSaved(`Version ${version} is now the latest.`);
      await props.onChanged();
      await loadVersions();
    } catch (caught) {
      setError(caught);
    }
  };
  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await client.assistants.create({ graphId: assistant.graph_id, name: newName.trim() || undefined });
      setNewName("");
      await props.onChanged();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <div className="assistants">
      <form className="card form" onSubmit={save} aria-label="Edit assistant">
        <h2>
          {assistant.name}{" "}
          <small>
            graph {assistant.graph_id}, version {assistant.version}
          </small>
        </h2>
        <Field label="Name" value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <Field
          label="Description"
          value={form.description}
          onChange={(description) => setForm({ ...form, description })}
          multiline
        />
        <Field
          label="Config (JSON)"
          value={form.config}
          onChange={(config) => setForm({ ...form, config })}
          multiline
        />
        <Field
          label="Context (JSON)"
          value={form.context}
          onChange={(context) => setForm({ ...form, context })}
          multiline
        />
        <ErrorMessage error={error} />
        {saved ? (
          <p className="notice" role="status">
            {saved}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit">Save assistant</button>
        </div>
      </form>
      <h3>Versions</h3>
      <table className="list">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((version) => (
            <tr key={version.version}>
              <td data-label="Version">{version.version}</td>
              <td data-label="Name">{version.name}</td>
              <td data-label="Created">{formatTime(version.created_at)}</td>
              <td>
                {version.version === assistant.version ? (
                  <span className="tag">latest</span>
                ) : (
                  <button type="button" className="secondary small" onClick={() => void setLatest(version.version)}>
                    Set latest <span className="sr-only">version {version.version}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline-form" onSubmit={create} aria-label="New assistant">
        <Field
          label={`New assistant of graph ${assistant.graph_id}`}
          value={newName}
          onChange={setNewName}
          placeholder="name"
        />
        <button type="submit" className="secondary">
          Create assistant
        </button>
      </form>
    </div>
  );
}
