import { useState } from "react";
import { useNavigate } from "react-router";
import { controlPlane, type DeploymentCreate, type DeploymentSource } from "../api/control-plane";
import { ApiError, describe } from "../api/errors";
import { session } from "../api/session";
import { ErrorMessage } from "../components/ErrorMessage";
import { Field } from "../components/Field";
import { SelectField } from "../components/SelectField";
import { rowErrors, SecretsEditor, secretsPayload, type SecretRow } from "./SecretsEditor";
import { useTitle } from "../components/useTitle";
import { checkArchive } from "./archive";
import { ArchiveField, CONFIG_PATH_HINT, UploadProgress, useArchiveUpload } from "./UploadSource";

/** An API source, or "upload": an internal_source deployment whose source is an archive sent from here. */
type SourceChoice = DeploymentSource | "upload";

const SOURCES: { value: SourceChoice; label: string; hint: string }[] = [
  { value: "internal_source", label: "Source (repository or path)", hint: "Built and run by this control plane." },
  {
    value: "upload",
    label: "Upload a folder (.tar.gz or .zip)",
    hint: "Your project, packed on this computer; built and run by this control plane.",
  },
  { value: "internal_docker", label: "Image (this platform's registry)", hint: "An image pushed with a push token." },
  { value: "external_docker", label: "External runtime", hint: "A runtime you run yourself, at a URL." },
  { value: "github", label: "GitHub integration", hint: "A repository through an integration id." },
];

/** A number when the text is one; otherwise the text, so the API's 422 says what is wrong with it. */
const numeric = (text: string): number | string | undefined =>
  text.trim() === "" ? undefined : Number.isFinite(Number(text)) ? Number(text) : text;

const clean = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined && item !== "")) as T;

export function CreateDeployment() {
  const navigate = useNavigate();
  useTitle("New deployment");
  const [form, setForm] = useState({
    name: "",
    source: "internal_source" as SourceChoice,
    deployment_type: "dev",
    repo_url: "",
    integration_id: "",
    repo_ref: "main",
    config_path: "langgraph.json",
    install_command: "",
    build_command: "",
    image_uri: "",
    custom_url: "",
    min_scale: "",
    max_scale: "",
    cpu: "",
    memory_mb: "",
  });
  const [secrets, setSecrets] = useState<SecretRow[]>([]);
  const [archive, setArchive] = useState<File | null>(null);
  const { progress, upload } = useArchiveUpload();
  // Which editor row each sent secret came from (the API's 422 names the sent index).
  const [secretIndexes, setSecretIndexes] = useState<number[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value });
  const fields = error instanceof ApiError ? rowErrors(error.fields, secretIndexes) : {};
  const errorFor = (...paths: string[]) => paths.map((path) => fields[path]).find(Boolean);

  const body = (sentSecrets: SecretRow[]): DeploymentCreate => {
    // An upload is created without a revision, as `langgraph deploy` does; the archive's PATCH starts it.
    const source = form.source === "upload" ? "internal_source" : form.source;
    const usesRepo = form.source === "internal_source" || source === "github";
    const usesImage = source !== "internal_source" && source !== "github";
    const resource = clean({
      min_scale: numeric(form.min_scale),
      max_scale: numeric(form.max_scale),
      cpu: numeric(form.cpu),
      memory_mb: numeric(form.memory_mb),
    });
    return {
      name: form.name.trim(),
      source,
      source_config: clean({
        deployment_type: form.deployment_type as "dev",
        repo_url: usesRepo ? form.repo_url.trim() : undefined,
        integration_id: source === "github" ? form.integration_id.trim() : undefined,
        install_command: source === "internal_source" ? form.install_command : undefined,
        build_command: source === "internal_source" ? form.build_command : undefined,
        custom_url: source === "external_docker" ? form.custom_url.trim() : undefined,
        resource_spec: Object.keys(resource).length ? (resource as never) : undefined,
      }),
      source_revision_config: clean({
        repo_ref: usesRepo ? form.repo_ref.trim() : undefined,
        langgraph_config_path: usesRepo ? form.config_path.trim() : undefined,
        image_uri: usesImage ? form.image_uri.trim() : undefined,
      }),
      secrets: sentSecrets,
    };
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const payload = secretsPayload(secrets);
      if (Object.keys(payload.problems).length) {
        setSecretIndexes(secrets.map((_, index) => index));
        throw new ApiError(422, "Please correct the highlighted fields.", payload.problems);
      }
      setSecretIndexes(payload.indexes);
      // A file that is no archive is refused here, before anything is created.
      if (form.source === "upload") await checkArchive(archive);
      const created = await controlPlane.createDeployment(body(payload.secrets));
      // The runtime's key is answered this once: keep it for the playground, show it once.
      session.setRuntimeKey(created.id, created.api_key);
      session.showKeyOnce(created.id, created.api_key);
      if (form.source === "upload") {
        try {
          if ((await upload(created.id, archive, form.config_path)) === "left") return;
        } catch (caught) {
          // The deployment exists: its page says why the archive was refused and takes another.
          navigate(`/deployments/${created.id}`, { state: { uploadError: describe(caught) } });
          return;
        }
      }
      // Its page follows the new revision live.
      navigate(`/deployments/${created.id}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const source = form.source;
  return (
    <section aria-labelledby="create-title">
      <h1 id="create-title">New deployment</h1>
      <form className="card form" onSubmit={submit} noValidate>
        <Field
          label="Name"
          value={form.name}
          onChange={set("name")}
          error={errorFor("name")}
          hint="Lowercase letters, digits and -."
          required
        />
        <fieldset>
          <legend>Source</legend>
          {SOURCES.map((option) => (
            <label key={option.value} className="choice">
              <input
                type="radio"
                name="source"
                value={option.value}
                checked={source === option.value}
                onChange={() => set("source")(option.value)}
              />
              <span>
                {option.label} <small>{option.hint}</small>
              </span>
            </label>
          ))}
          {errorFor("source") ? <small className="field-error">{errorFor("source")}</small> : null}
        </fieldset>
        <SelectField
          label="Deployment type"
          value={form.deployment_type}
          options={["dev", "dev_free", "prod"]}
          onChange={set("deployment_type")}
          error={errorFor("source_config.deployment_type")}
        />
        {source === "internal_source" || source === "github" ? (
          <>
            {source === "github" ? (
              <Field
                label="Integration id"
                value={form.integration_id}
                onChange={set("integration_id")}
                error={errorFor("source_config.integration_id")}
              />
            ) : null}
            <Field
              label="Repository URL or path"
              value={form.repo_url}
              onChange={set("repo_url")}
              error={errorFor("source_config.repo_url", "source_config")}
              placeholder={source === "github" ? "https://github.com/org/repo" : "/path/to/project or file:///…"}
            />
            <Field
              label="Git reference"
              value={form.repo_ref}
              onChange={set("repo_ref")}
              error={errorFor("source_revision_config.repo_ref")}
            />
            <Field
              label="langgraph.json path"
              value={form.config_path}
              onChange={set("config_path")}
              error={errorFor("source_revision_config.langgraph_config_path")}
            />
          </>
        ) : null}
        {source === "upload" ? (
          <>
            <ArchiveField onChange={setArchive} error={errorFor("archive")} />
            <Field
              label="langgraph.json path"
              value={form.config_path}
              onChange={set("config_path")}
              error={errorFor("source_revision_config.langgraph_config_path")}
              hint={CONFIG_PATH_HINT}
            />
          </>
        ) : null}
        {source === "internal_source" || source === "upload" ? (
          <>
            <Field
              label="Install command"
              value={form.install_command}
              onChange={set("install_command")}
              error={errorFor("source_config.install_command")}
              placeholder="npm ci"
            />
            <Field
              label="Build command"
              value={form.build_command}
              onChange={set("build_command")}
              error={errorFor("source_config.build_command")}
            />
          </>
        ) : null}
        {source === "internal_docker" || source === "external_docker" ? (
          <Field
            label="Image"
            value={form.image_uri}
            onChange={set("image_uri")}
            error={errorFor("source_revision_config.image_uri", "source_revision_config")}
            hint={source === "internal_docker" ? "Optional: leave empty and push later with a push token." : undefined}
          />
        ) : null}
        {source === "external_docker" ? (
          <Field
            label="Runtime URL"
            value={form.custom_url}
            onChange={set("custom_url")}
            error={errorFor("source_config.custom_url")}
            placeholder="https://agents.example.com"
          />
        ) : null}
        <fieldset>
          <legend>Resources (optional)</legend>
          <div className="grid">
            <Field
              label="Min scale"
              value={form.min_scale}
              onChange={set("min_scale")}
              error={errorFor("source_config.resource_spec.min_scale")}
            />
            <Field
              label="Max scale"
              value={form.max_scale}
              onChange={set("max_scale")}
              error={errorFor("source_config.resource_spec.max_scale")}
            />
            <Field
              label="CPU (cores)"
              value={form.cpu}
              onChange={set("cpu")}
              error={errorFor("source_config.resource_spec.cpu")}
            />
            <Field
              label="Memory (MB)"
              value={form.memory_mb}
              onChange={set("memory_mb")}
              error={errorFor("source_config.resource_spec.memory_mb")}
            />
          </div>
        </fieldset>
        <SecretsEditor rows={secrets} onChange={setSecrets} fields={fields} />
        {progress ? <UploadProgress progress={progress} /> : null}
        <ErrorMessage error={error} />
        <div className="actions">
          <button type="submit" disabled={busy}>
            {busy ? (progress ? "Uploading…" : "Creating…") : "Create deployment"}
          </button>
        </div>
      </form>
    </section>
  );
}
