import { useCallback, useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { controlPlane, type Deployment, type Revision } from "../api/control-plane";
import { ApiError } from "../api/errors";
import { session } from "../api/session";
import { Confirm } from "../components/Confirm";
import { ErrorMessage } from "../components/ErrorMessage";
import { StatusBadge } from "../components/StatusBadge";
import { formatTime } from "../components/time";
import { usePolling } from "../components/usePolling";
import { RevisionTimeline } from "../revisions/RevisionTimeline";
import { isMoving } from "../revisions/status";
import { rowErrors, SecretsEditor, secretsPayload, type SecretRow } from "./SecretsEditor";
import { useTitle } from "../components/useTitle";
import { DeployUpload } from "./UploadSource";

export function DeploymentDetail() {
  const { deploymentId = "" } = useParams();
  const navigate = useNavigate();
  // The create form's upload, when the control plane refused its archive after the deployment was made:
  // kept here, and taken out of the history entry so that a reload does not show it again.
  const location = useLocation();
  const [uploadError] = useState((location.state as { uploadError?: string } | null)?.uploadError);
  useEffect(() => {
    if (uploadError) navigate(location.pathname, { replace: true, state: null });
  }, [uploadError, navigate, location.pathname]);
  const [deployment, setDeployment] = useState<Deployment | null>(null);
  const [revisions, setRevisions] = useState<Revision[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [shownKey, setShownKey] = useState<string | null>(() => session.keyToShow(deploymentId));
  const [gone, setGone] = useState(false);
  useTitle(deployment?.name ?? "Deployment");
  const [busy, setBusy] = useState(false);
  // Revisions are read a page at a time; "Show older" reads more.
  const [revisionLimit, setRevisionLimit] = useState(20);
  const [moreRevisions, setMoreRevisions] = useState(false);

  const load = useCallback(async () => {
    try {
      const [next, page] = await Promise.all([
        controlPlane.getDeployment(deploymentId),
        controlPlane.listRevisions(deploymentId, { limit: revisionLimit }),
      ]);
      setDeployment(next);
      setRevisions(page.resources);
      setMoreRevisions(page.resources.length === revisionLimit);
      setError(null);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 404) setGone(true);
      setError(caught);
    }
  }, [deploymentId, revisionLimit]);
  // Live while a revision moves or the deployment is being deleted; otherwise every 10 s.
  const moving = revisions.some((revision) => isMoving(revision.status)) || deployment?.status === "AWAITING_DELETE";
  usePolling(load, moving || !deployment ? 1000 : 10_000, !gone, [revisionLimit]);

  /** One action at a time: its buttons are disabled until it is done. */
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await work();
      await load();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  if (gone)
    return (
      <section>
        <p role="alert">This deployment does not exist (any more).</p>
        <Link to="/deployments">Back to deployments</Link>
      </section>
    );
  if (!deployment) return error ? <ErrorMessage error={error} /> : <p aria-busy="true">Loading…</p>;

  const url = deployment.source_config.custom_url;
  const spec = deployment.source_config.resource_spec ?? {};
  return (
    <section aria-labelledby="deployment-title">
      <div className="heading">
        <h1 id="deployment-title">{deployment.name}</h1>
        <StatusBadge status={deployment.status} />
        <Link className="button" to={`/deployments/${deployment.id}/playground`}>
          Open playground
        </Link>
        <Link className="button secondary" to={`/deployments/${deployment.id}/monitoring`}>
          Monitoring
        </Link>
      </div>
      <ErrorMessage error={error} />
      {shownKey ? (
        <div className="notice" role="status">
          <strong>The runtime's API key, shown this once:</strong> <code className="secret-value">{shownKey}</code>
          <p>
            Send it as <code>x-api-key</code> to the runtime. The playground in this tab already has it.
          </p>
          <button
            type="button"
            className="link"
            onClick={() => {
              session.keyShown(deploymentId);
              setShownKey(null);
            }}
          >
            I have kept it
          </button>
        </div>
      ) : null}
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{deployment.id}</code>
        </dd>
        <dt>Source</dt>
        <dd>{deployment.source}</dd>
        <dt>Runtime URL</dt>
        <dd className="url">{url ? <ExternalUrl url={url} /> : "not deployed yet"}</dd>
        <dt>Repository</dt>
        <dd>
          {deployment.source_config.repo_url ??
            deployment.source_revision_config.image_uri ??
            (deployment.source_revision_config.source_tarball_path ? "an uploaded archive" : "—")}
        </dd>
        <dt>Reference</dt>
        <dd>{deployment.source_revision_config.repo_ref ?? "—"}</dd>
        <dt>Type</dt>
        <dd>{deployment.source_config.deployment_type ?? "—"}</dd>
        <dt>Resources</dt>
        <dd>
          {Object.entries(spec).filter(([, value]) => value !== null && typeof value !== "object").length
            ? Object.entries(spec)
                .filter(([, value]) => value !== null && typeof value !== "object")
                .map(([name, value]) => `${name}: ${String(value)}`)
                .join(", ")
            : "defaults"}
        </dd>
        <dt>Runtime key</dt>
        <dd>
          {deployment.api_key_prefix ? <code>{deployment.api_key_prefix}…</code> : "—"}{" "}
          <Confirm
            label="Rotate key…"
            confirmLabel="Rotate the key"
            tone="link"
            busy={busy}
            question="A new key is made and deployed as a new revision; the current key stops working once that revision is DEPLOYED, for every client that uses it."
            onConfirm={() =>
              act(async () => {
                const rotated = await controlPlane.rotateRuntimeKey(deployment.id);
                session.setRuntimeKey(deployment.id, rotated.api_key);
                session.showKeyOnce(deployment.id, rotated.api_key);
                setShownKey(rotated.api_key);
              })
            }
          />
        </dd>
        <dt>Created</dt>
        <dd>{formatTime(deployment.created_at)}</dd>
      </dl>
      <SecretsPanel deployment={deployment} onSaved={load} />
      {deployment.source === "internal_source" && !deployment.source_config.repo_url ? (
        <DeployUpload deployment={deployment} initialError={uploadError} onDeployed={load} />
      ) : null}
      <h2>Revisions</h2>
      <RevisionTimeline
        deployment={deployment}
        revisions={revisions}
        busy={busy}
        onRedeploy={(revisionId) => act(() => controlPlane.redeploy(deployment.id, revisionId))}
      />
      {moreRevisions ? (
        <button type="button" className="secondary" onClick={() => setRevisionLimit(Math.min(revisionLimit + 20, 100))}>
          Show older revisions
        </button>
      ) : null}
      <h2>Danger zone</h2>
      <Confirm
        label="Delete…"
        confirmLabel="Delete deployment"
        busy={busy}
        question={
          <>
            Delete <strong>{deployment.name}</strong>? Its runtime stops and its database is dropped.
          </>
        }
        onConfirm={() =>
          act(async () => {
            await controlPlane.deleteDeployment(deployment.id);
            navigate("/deployments");
          })
        }
      />
    </section>
  );
}

/** Names only; a new value is write-only, and unchanged secrets go back masked (kept as stored). */
function SecretsPanel({ deployment, onSaved }: { deployment: Deployment; onSaved: () => Promise<void> }) {
  const stored = new Set(deployment.secrets.map((secret) => secret.name));
  const [editing, setEditing] = useState<SecretRow[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [indexes, setIndexes] = useState<number[]>([]);
  if (!editing)
    return (
      <>
        <h2>Secrets</h2>
        <p>
          {deployment.secrets.length
            ? deployment.secrets.map((secret) => <code key={secret.name}>{secret.name} </code>)
            : "None."}{" "}
          <button
            type="button"
            className="link"
            onClick={() => setEditing(deployment.secrets.map((secret) => ({ name: secret.name, value: "" })))}
          >
            Edit secrets
          </button>
        </p>
      </>
    );
  const masked = new Map(deployment.secrets.map((secret) => [secret.name, secret.value]));
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const payload = secretsPayload(editing, masked);
      if (Object.keys(payload.problems).length) {
        setIndexes(editing.map((_, index) => index));
        throw new ApiError(422, "Please correct the highlighted fields.", payload.problems);
      }
      setIndexes(payload.indexes);
      await controlPlane.updateDeployment(deployment.id, { secrets: payload.secrets });
      setEditing(null);
      await onSaved();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <form className="card form" onSubmit={save} aria-label="Secrets">
      <h2>Secrets</h2>
      <SecretsEditor
        rows={editing}
        onChange={setEditing}
        fields={error instanceof ApiError ? rowErrors(error.fields, indexes) : {}}
        stored={stored}
      />
      <ErrorMessage error={error} />
      <div className="actions">
        <button type="submit">Save secrets (new revision)</button>{" "}
        <button type="button" className="secondary" onClick={() => setEditing(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A link only for http(s) URLs (the API refuses others; this does not rely on it). */
function ExternalUrl({ url }: { url: string }) {
  const safe = URL.canParse(url) ? new URL(url) : null;
  if (!safe || (safe.protocol !== "http:" && safe.protocol !== "https:")) return <>{url}</>;
  return <a href={`${safe.origin}${safe.pathname.replace(/\/$/, "")}/docs`}>{url}</a>;
}
