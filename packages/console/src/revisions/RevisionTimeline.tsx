import { Link } from "react-router";
import type { Deployment, Revision } from "../api/control-plane";
import { StatusBadge } from "../components/StatusBadge";
import { elapsed, formatTime } from "../components/time";
import { isMoving } from "./status";

/** Each revision, newest first, with every status it went through and when. */
export function RevisionTimeline(props: {
  deployment: Deployment;
  revisions: Revision[];
  busy: boolean;
  onRedeploy: (revisionId: string) => void;
}) {
  const { deployment, revisions } = props;
  if (!revisions.length) return <p className="empty">No revision yet: it starts when the source or image is given.</p>;
  return (
    <ol className="timeline" aria-label="Revisions">
      {revisions.map((revision, index) => {
        const active = revision.id === deployment.active_revision_id;
        const latest = index === 0;
        return (
          <li key={revision.id} className={active ? "active" : undefined} aria-label={`Revision ${revision.id}`}>
            <div className="row">
              <StatusBadge status={revision.status} />
              <Link to={`/deployments/${deployment.id}/revisions/${revision.id}`}>
                {revision.source_revision_config.repo_ref ?? revision.source_revision_config.image_uri ?? "revision"}{" "}
                <code>{revision.id.slice(0, 8)}</code>
              </Link>
              {active ? <span className="tag">active</span> : null}
              {latest ? <span className="tag">latest</span> : null}
              <span className="when">{formatTime(revision.created_at)}</span>
              {!isMoving(revision.status) && (!latest || revision.status !== "DEPLOYED") ? (
                <button
                  type="button"
                  className="secondary small"
                  disabled={props.busy}
                  onClick={() => props.onRedeploy(revision.id)}
                >
                  {latest ? "Redeploy" : "Roll back to this"}
                </button>
              ) : null}
            </div>
            <Steps revision={revision} />
            {revision.status_message ? <p className="status-message">{revision.status_message}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}

export function Steps({ revision }: { revision: Revision }) {
  const history = revision.status_history ?? [];
  return (
    <ol className="steps" aria-label="Status history">
      {history.map((step, index) => (
        <li key={`${step.status}-${index}`} title={step.message ?? undefined}>
          <span className="step-status">{step.status}</span>{" "}
          <time dateTime={step.at}>{new Date(step.at).toLocaleTimeString()}</time>
          {index > 0 ? <span className="took"> +{elapsed(history[index - 1].at, step.at)}</span> : null}
        </li>
      ))}
    </ol>
  );
}
