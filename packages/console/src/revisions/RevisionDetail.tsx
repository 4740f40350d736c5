import { useCallback, useState } from "react";
import { Link, useParams } from "react-router";
import { controlPlane, type Revision } from "../api/control-plane";
import { ErrorMessage } from "../components/ErrorMessage";
import { StatusBadge } from "../components/StatusBadge";
import { formatTime } from "../components/time";
import { usePolling } from "../components/usePolling";
import { Logs } from "./Logs";
import { Steps } from "./RevisionTimeline";
import { isMoving } from "./status";
import { useTitle } from "../components/useTitle";

export function RevisionDetail() {
  const { deploymentId = "", revisionId = "" } = useParams();
  const [revision, setRevision] = useState<Revision | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [redeployed, setRedeployed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useTitle(`Revision ${revisionId.slice(0, 8)}${revision ? ` (${revision.status})` : ""}`);
  const load = useCallback(async () => {
    try {
      setRevision(await controlPlane.getRevision(deploymentId, revisionId));
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [deploymentId, revisionId]);
  const moving = !revision || isMoving(revision.status);
  usePolling(load, moving ? 1000 : 15_000, true);

  return (
    <section aria-labelledby="revision-title">
      <p>
        <Link to={`/deployments/${deploymentId}`}>← Deployment</Link>
      </p>
      <div className="heading">
        <h1 id="revision-title">
          Revision <code>{revisionId.slice(0, 8)}</code>
        </h1>
        {revision ? <StatusBadge status={revision.status} /> : null}
        {revision && !moving ? (
          <button
            type="button"
            className="secondary"
            disabled={busy || redeployed !== null}
            onClick={async () => {
              setBusy(true);
              try {
                const deployment = await controlPlane.redeploy(deploymentId, revisionId);
                setRedeployed(deployment.latest_revision_id ?? null);
              } catch (caught) {
                setError(caught);
              } finally {
                setBusy(false);
              }
            }}
          >
            Redeploy this revision
          </button>
        ) : null}
      </div>
      {redeployed ? (
        <p className="notice" role="status">
          A new revision with this configuration was started:{" "}
          <Link to={`/deployments/${deploymentId}/revisions/${redeployed}`}>follow it</Link>.
        </p>
      ) : null}
      <ErrorMessage error={error} />
      {revision ? (
        <>
          <dl className="facts">
            <dt>Created</dt>
            <dd>{formatTime(revision.created_at)}</dd>
            <dt>Source</dt>
            <dd>
              {revision.source}{" "}
              {revision.source_revision_config.repo_ref ?? revision.source_revision_config.image_uri ?? ""}
              {revision.source_revision_config.repo_commit_sha ? (
                <code> {revision.source_revision_config.repo_commit_sha.slice(0, 12)}</code>
              ) : null}
            </dd>
            <dt>URL</dt>
            <dd className="url">{revision.url ?? "—"}</dd>
            {revision.status_message ? (
              <>
                <dt>Message</dt>
                <dd className="status-message">{revision.status_message}</dd>
              </>
            ) : null}
          </dl>
          <h2>Timeline</h2>
          <Steps revision={revision} />
        </>
      ) : null}
      <Logs deploymentId={deploymentId} revisionId={revisionId} live={moving} />
    </section>
  );
}
