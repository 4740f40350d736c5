import { useEffect, useId, useState } from "react";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Field } from "../../components/Field";
import { useRuntime } from "../runtime";
import { formatNamespace, parseNamespace, parseObject } from "./namespace";

const EXAMPLE = '{\n  "text": ""\n}';

/**
 * Puts an item (`putItem`): a namespace, a key, a JSON object. The same key in the same namespace
 * replaces the item; with a semantic index its indexed fields (langgraph.json's `store.index.fields`)
 * are embedded, so the item can be found by meaning.
 */
export function PutItem(props: { namespace: string[]; onPut: (namespace: string[]) => void }) {
  const { client } = useRuntime();
  const valueId = useId();
  const [namespace, setNamespace] = useState(formatNamespace(props.namespace));
  const [key, setKey] = useState("");
  const [value, setValue] = useState(EXAMPLE);
  const [problems, setProblems] = useState<{ namespace?: string; key?: string; value?: string }>({});
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The namespace chosen in the list is where the next item goes, until another is typed.
  useEffect(() => setNamespace(formatNamespace(props.namespace)), [props.namespace]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(null);
    setError(null);
    const labels = parseNamespace(namespace);
    const found: typeof problems = {};
    if (!labels.length) found.namespace = "Give the namespace: at least one label (notes, or notes.ada).";
    if (!key.trim()) found.key = "Give the item a key.";
    let parsed: Record<string, unknown> = {};
    try {
      parsed = parseObject("The value", value);
    } catch (caught) {
      found.value = (caught as Error).message;
    }
    setProblems(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await client.store.putItem(labels, key.trim(), parsed);
      setDone(`Stored ${formatNamespace(labels)} / ${key.trim()}.`);
      setKey("");
      setValue(EXAMPLE);
      props.onPut(labels);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form" aria-label="Put an item" onSubmit={(event) => void submit(event)}>
      <h3>Put an item</h3>
      <Field
        label="Namespace"
        value={namespace}
        placeholder="notes.ada"
        hint="Labels joined by dots."
        error={problems.namespace}
        onChange={setNamespace}
      />
      <Field label="Key" value={key} error={problems.key} onChange={setKey} />
      <div className={`field${problems.value ? " invalid" : ""}`}>
        <label htmlFor={valueId}>Value (JSON)</label>
        <textarea
          id={valueId}
          rows={6}
          value={value}
          spellCheck={false}
          aria-invalid={problems.value ? true : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
        {problems.value ? <small className="field-error">{problems.value}</small> : null}
      </div>
      <ErrorMessage error={error} />
      {done ? (
        <p role="status" className="notice">
          {done}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={busy}>
          Put item
        </button>
      </div>
    </form>
  );
}
