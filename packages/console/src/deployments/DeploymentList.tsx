import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { controlPlane, type Deployment } from "../api/control-plane";
import { ErrorMessage } from "../components/ErrorMessage";
import { SelectField } from "../components/SelectField";
import { StatusBadge } from "../components/StatusBadge";
import { LocalRuntimeCard } from "../local-runtime/LocalRuntimeCard";
import { useLocalRuntime } from "../local-runtime/useLocalRuntime";
import { formatTime } from "../components/time";
import { useTitle } from "../components/useTitle";

const PAGE = 20;
const STATUSES = ["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"];
const TYPES = ["dev_free", "dev", "dev_zero", "prod"];

/** Search, filters and paging as the API offers them; the filters live in the URL (no secrets there). */
export function DeploymentList() {
  const [params, setParams] = useSearchParams();
  const name = params.get("name") ?? "";
  const status = params.get("status") ?? "";
  const type = params.get("type") ?? "";
  const image = params.get("image") ?? "";
  const [search, setSearch] = useState(name);
  const [imageSearch, setImageSearch] = useState(image);
  // The API pages by continuation offsets: keep the ones behind us for "Previous".
  const [offsets, setOffsets] = useState<number[]>([0]);
  const [page, setPage] = useState<{ resources: Deployment[]; offset: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useTitle("Deployments");
  const local = useLocalRuntime();
  const offset = offsets[offsets.length - 1];
  // Filters changed (a search, or back/forward in the URL): the pages start again, and the boxes
  // show the URL's values. A continuation offset belongs to the filter it was read under.
  const filterKey = JSON.stringify([name, status, type, image]);
  const [pagedFor, setPagedFor] = useState(filterKey);
  if (pagedFor !== filterKey) {
    setPagedFor(filterKey);
    setOffsets([0]);
    setSearch(name);
    setImageSearch(image);
  }

  useEffect(() => {
    let cancelled = false;
    setError(null);
    controlPlane
      .listDeployments({
        limit: PAGE,
        offset,
        name_contains: name,
        status,
        deployment_type: type,
        image_version: image,
      })
      .then(
        (result) => !cancelled && setPage(result),
        (caught) => !cancelled && setError(caught),
      );
    return () => {
      cancelled = true;
    };
  }, [name, status, type, image, offset]);

  const filter = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };

  return (
    <section aria-labelledby="deployments-title">
      <div className="heading">
        <h1 id="deployments-title">Deployments</h1>
        <Link to="/deployments/new" className="button">
          New deployment
        </Link>
      </div>
      {local ? <LocalRuntimeCard local={local} /> : null}
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          filter({ name: search.trim(), image: imageSearch.trim() });
        }}
      >
        <label>
          Name contains
          <input value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <SelectField
          label="Status"
          value={status}
          options={STATUSES}
          anyLabel="any"
          onChange={(value) => filter({ status: value })}
        />
        <SelectField
          label="Type"
          value={type}
          options={TYPES}
          anyLabel="any"
          onChange={(value) => filter({ type: value })}
        />
        <label>
          Image version
          <input value={imageSearch} onChange={(event) => setImageSearch(event.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} />
      {page && page.resources.length === 0 ? (
        <p className="empty">
          {name || status || type || image ? "No deployment matches." : "No deployments yet."}{" "}
          <Link to="/deployments/new">Create one</Link>.
        </p>
      ) : null}
      {page && page.resources.length > 0 ? (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Source</th>
              <th scope="col">Status</th>
              <th scope="col">URL</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {page.resources.map((deployment) => (
              <tr key={deployment.id}>
                <td data-label="Name">
                  <Link to={`/deployments/${deployment.id}`}>{deployment.name}</Link>
                  {deployment.id === local?.deployment_id ? <span className="tag">local runtime</span> : null}
                </td>
                <td data-label="Source">{deployment.source}</td>
                <td data-label="Status">
                  <StatusBadge status={deployment.status} />
                </td>
                <td data-label="URL" className="url">
                  {deployment.source_config.custom_url ?? "—"}
                </td>
                <td data-label="Updated">{formatTime(deployment.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={offsets.length < 2} onClick={() => setOffsets(offsets.slice(0, -1))}>
          Previous
        </button>
        <button
          type="button"
          disabled={!page || page.resources.length < PAGE}
          onClick={() => page && setOffsets([...offsets, page.offset])}
        >
          Next
        </button>
      </nav>
    </section>
  );
}
