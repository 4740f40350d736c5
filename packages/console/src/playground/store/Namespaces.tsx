import { useEffect, useState } from "react";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Field } from "../../components/Field";
import { useRuntime } from "../runtime";
import { formatNamespace, parseNamespace } from "./namespace";

const PAGE = 50;

/** The store's namespaces under a prefix (`listNamespaces`), paged; choosing one shows its items. */
export function Namespaces(props: { selected: string[]; onSelect: (namespace: string[]) => void; version: number }) {
  const { client } = useRuntime();
  const [prefix, setPrefix] = useState("");
  const [offset, setOffset] = useState(0);
  const [namespaces, setNamespaces] = useState<string[][] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const labels = parseNamespace(prefix);
    client.store.listNamespaces({ prefix: labels.length ? labels : undefined, limit: PAGE, offset }).then((answer) => {
      setNamespaces(answer.namespaces);
      setError(null);
    }, setError);
  }, [client, prefix, offset, props.version]);
  const selected = formatNamespace(props.selected);
  return (
    <section className="card store-namespaces" aria-labelledby="store-namespaces">
      <h3 id="store-namespaces">Namespaces</h3>
      <Field
        label="Namespace prefix"
        value={prefix}
        placeholder="notes.ada"
        hint="Labels joined by dots; * matches any one label."
        onChange={(value) => {
          setOffset(0);
          setPrefix(value);
        }}
      />
      <ErrorMessage error={error} />
      <ul className="namespace-list" aria-label="Namespaces">
        <li>
          <button type="button" className="link" aria-pressed={selected === ""} onClick={() => props.onSelect([])}>
            Every item
          </button>
        </li>
        {(namespaces ?? []).map((namespace) => {
          const name = formatNamespace(namespace);
          return (
            <li key={name}>
              <button
                type="button"
                className="link"
                aria-pressed={selected === name}
                onClick={() => props.onSelect(namespace)}
              >
                {name}
              </button>
            </li>
          );
        })}
      </ul>
      {namespaces && namespaces.length === 0 ? (
        <p className="empty">No namespace{prefix.trim() ? ` under ${prefix.trim()}` : ""} yet.</p>
      ) : null}
      <nav className="pager" aria-label="Namespace pages">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <button
          type="button"
          disabled={!namespaces || namespaces.length < PAGE}
          onClick={() => setOffset(offset + PAGE)}
        >
          Next
        </button>
      </nav>
    </section>
  );
}
