import { useEffect, useState } from "react";
import type { SearchItem } from "@langchain/langgraph-sdk";
import { Confirm } from "../../components/Confirm";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Field } from "../../components/Field";
import { formatTime } from "../../components/time";
import { pretty, useRuntime } from "../runtime";
import { formatNamespace, parseObject } from "./namespace";

const PAGE = 10;

interface Search {
  query: string;
  filter: Record<string, unknown>;
}

/**
 * The items under a namespace (`searchItems`, paged), searched by meaning (`query`: with a semantic
 * index they rank by similarity and carry a score; without one the query is ignored, and the view
 * says so) and by field values (`filter`, a JSON object); each item can be deleted.
 */
export function Items(props: { namespace: string[]; version: number; onChanged: () => void }) {
  const { client } = useRuntime();
  const [query, setQuery] = useState("");
  const [filter, setFilter] = useState("");
  const [search, setSearch] = useState<Search>({ query: "", filter: {} });
  const [offset, setOffset] = useState(0);
  const [items, setItems] = useState<SearchItem[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [filterError, setFilterError] = useState<string | undefined>();
  const [deleting, setDeleting] = useState(false);
  const where = formatNamespace(props.namespace);

  useEffect(() => {
    client.store
      .searchItems(props.namespace, {
        query: search.query || undefined,
        filter: Object.keys(search.filter).length ? search.filter : undefined,
        limit: PAGE,
        offset,
      })
      .then((answer) => {
        setItems(answer.items);
        setError(null);
      }, setError);
  }, [client, props.namespace, search, offset, props.version]);
  // Another namespace starts at its first page.
  useEffect(() => setOffset(0), [where]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const parsed = parseObject("The filter", filter);
      setFilterError(undefined);
      setOffset(0);
      setSearch({ query: query.trim(), filter: parsed });
    } catch (caught) {
      setFilterError((caught as Error).message);
    }
  };
  const remove = async (item: SearchItem) => {
    setDeleting(true);
    try {
      await client.store.deleteItem(item.namespace, item.key);
      props.onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setDeleting(false);
    }
  };
  const scored = (items ?? []).some((item) => typeof item.score === "number");

  return (
    <section className="card" aria-labelledby="store-items">
      <h3 id="store-items">Items {where ? <>under {where}</> : <>in every namespace</>}</h3>
      <form className="store-search" aria-label="Search items" onSubmit={submit}>
        <Field label="Search by meaning" value={query} placeholder="where does the cat sleep?" onChange={setQuery} />
        <Field
          label="Filter (JSON)"
          value={filter}
          placeholder='{"kind": "note"}'
          error={filterError}
          hint='Field values to match: {"kind": "note"}, or operators: {"year": {"$gte": 2020}}.'
          onChange={setFilter}
        />
        <div className="actions">
          <button type="submit">Search</button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {search.query && items?.length ? (
        <p className="hint" role="status">
          {scored
            ? "Ranked by meaning: the score is each item's similarity to the search."
            : "This deployment's store has no semantic index, so the search by meaning was ignored: use a filter."}
        </p>
      ) : null}
      {items && items.length === 0 ? (
        <p className="empty">No item here{search.query || Object.keys(search.filter).length ? " matches" : ""}.</p>
      ) : null}
      <ul className="store-items" aria-label="Items">
        {(items ?? []).map((item) => {
          const name = `${formatNamespace(item.namespace)} / ${item.key}`;
          return (
            <li key={name} aria-label={`Item ${name}`}>
              <div className="heading">
                <code>{name}</code>
                {typeof item.score === "number" ? (
                  <span className="tag" title="Similarity to the search">
                    score {item.score.toFixed(2)}
                  </span>
                ) : null}
                <span className="when">updated {formatTime(item.updatedAt)}</span>
                <Confirm
                  label="Delete"
                  confirmLabel="Delete the item"
                  question={
                    <>
                      Delete <code>{name}</code> from the store? Graphs reading it will no longer find it.
                    </>
                  }
                  busy={deleting}
                  onConfirm={() => void remove(item)}
                />
              </div>
              <pre className="json" aria-label={`Value of ${name}`}>
                {pretty(item.value)}
              </pre>
            </li>
          );
        })}
      </ul>
      <nav className="pager" aria-label="Item pages">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <button type="button" disabled={!items || items.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
          Next
        </button>
      </nav>
    </section>
  );
}
