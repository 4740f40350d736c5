// Deploying a project folder from the browser, packed as .tar.gz or .zip: the archive field, the
// upload's progress bar, and the panel of an upload-based deployment's page that deploys a new one.
import { useEffect, useId, useRef, useState } from "react";
import type { Deployment } from "../api/control-plane";
import { ApiError } from "../api/errors";
import { ErrorMessage } from "../components/ErrorMessage";
import { Field } from "../components/Field";
import { ARCHIVE_ACCEPT, DEFAULT_MAX_BYTES, deployArchive, formatBytes, type Progress } from "./archive";
import "./upload.css";

export function ArchiveField({ onChange, error }: { onChange: (file: File | null) => void; error?: string }) {
  const id = useId();
  return (
    <div className={`field${error ? " invalid" : ""}`}>
      <label htmlFor={id}>Project archive</label>
      <input
        id={id}
        type="file"
        accept={ARCHIVE_ACCEPT}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note`}
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
      />
      <small className={error ? "field-error" : "hint"} id={`${id}-note`}>
        {error ?? (
          <>
            A .tar.gz or .zip of the project folder, with its langgraph.json; at most {formatBytes(DEFAULT_MAX_BYTES)}{" "}
            unless the control plane's UPLOAD_MAX_BYTES says otherwise. For example{" "}
            <code>tar -czf project.tar.gz -C my-project .</code>
          </>
        )}
      </small>
    </div>
  );
}

/** The bytes sent so far, as a labelled progress bar (role progressbar, named "Upload progress"). */
export function UploadProgress({ progress }: { progress: Progress }) {
  const id = useId();
  const done = progress.total > 0 && progress.sent >= progress.total;
  return (
    <div className="upload-progress">
      <label htmlFor={id}>Upload progress</label>
      <progress id={id} value={progress.sent} max={Math.max(progress.total, 1)} />
      <small className="hint" aria-live="polite">
        {formatBytes(progress.sent)} of {formatBytes(progress.total)} sent
        {done ? ": starting the revision…" : ""}
      </small>
    </div>
  );
}

/**
 * An upload in flight: its progress, stopped when the screen goes away. `upload` then answers
 * "left" rather than an error, so that nothing (an error, a navigation) follows the user elsewhere.
 */
export function useArchiveUpload() {
  const [progress, setProgress] = useState<Progress | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const upload = async (deploymentId: string, file: File | null, configPath: string) => {
    const current = new AbortController();
    controller.current = current;
    try {
      return await deployArchive(deploymentId, file, configPath, setProgress, current.signal);
    } catch (caught) {
      if (current.signal.aborted) return "left" as const;
      throw caught;
    } finally {
      setProgress(null);
    }
  };
  return { progress, upload };
}

/** Help for the langgraph.json path: an archive of the folder itself holds it one level down. */
export const CONFIG_PATH_HINT = "Inside the archive: my-project/langgraph.json if it holds the folder itself.";

/**
 * The deployment page's "Deploy an upload" panel, for internal_source deployments without a
 * repository (made from an upload, or by the CLI): a new archive, a new revision.
 */
export function DeployUpload({
  deployment,
  initialError,
  onDeployed,
}: {
  deployment: Deployment;
  initialError?: string;
  onDeployed: () => Promise<void>;
}) {
  const [file, setFile] = useState<File | null>(null);
  // A new key remounts the file input, emptying it after a deploy.
  const [inputKey, setInputKey] = useState(0);
  const [configPath, setConfigPath] = useState(
    deployment.source_revision_config.langgraph_config_path ?? "langgraph.json",
  );
  const [error, setError] = useState<unknown>(initialError ? new ApiError(422, initialError) : null);
  const [busy, setBusy] = useState(false);
  const { progress, upload } = useArchiveUpload();
  const fields = error instanceof ApiError ? error.fields : {};

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if ((await upload(deployment.id, file, configPath)) === "left") return;
      setFile(null);
      setInputKey(inputKey + 1);
      await onDeployed();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form upload-panel" onSubmit={submit} aria-labelledby="deploy-upload-title" noValidate>
      <h2 id="deploy-upload-title">Deploy an upload</h2>
      <ArchiveField key={inputKey} onChange={setFile} error={fields.archive} />
      <Field
        label="langgraph.json path"
        value={configPath}
        onChange={setConfigPath}
        error={fields["source_revision_config.langgraph_config_path"]}
        hint={CONFIG_PATH_HINT}
      />
      {progress ? <UploadProgress progress={progress} /> : null}
      <ErrorMessage error={error} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? "Uploading…" : "Upload and deploy"}
        </button>
      </div>
    </form>
  );
}
