import { useState } from "react";
import type { OAuthProvider, OAuthProviderCreate } from "../api/control-plane";
import { ApiError } from "../api/errors";
import { ErrorMessage } from "../components/ErrorMessage";
import { Field } from "../components/Field";
import { SelectField } from "../components/SelectField";

const METHODS = ["client_secret_post", "client_secret_basic", "none"] as const;

/** Create (no `existing`) or edit a provider; the client secret is write-only. */
export function ProviderForm(props: {
  existing?: OAuthProvider;
  onSubmit: (body: OAuthProviderCreate) => Promise<void>;
  submitLabel: string;
}) {
  const existing = props.existing;
  const [form, setForm] = useState({
    provider_id: existing?.provider_id ?? "",
    name: existing?.name ?? "",
    client_id: existing?.client_id ?? "",
    client_secret: "",
    auth_url: existing?.auth_url ?? "",
    token_url: existing?.token_url ?? "",
    issuer: existing?.issuer ?? "",
    uses_pkce: existing?.uses_pkce ?? false,
    token_endpoint_auth_method: existing?.token_endpoint_auth_method ?? "client_secret_post",
  });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value });
  const fields = error instanceof ApiError ? error.fields : {};

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: OAuthProviderCreate = {
        provider_id: form.provider_id.trim(),
        name: form.name.trim(),
        client_id: form.client_id.trim(),
        auth_url: form.auth_url.trim(),
        token_url: form.token_url.trim(),
        issuer: form.issuer.trim() || null,
        uses_pkce: form.uses_pkce,
        code_challenge_method: "S256",
        token_endpoint_auth_method: form.token_endpoint_auth_method,
      };
      // An empty secret on edit keeps the stored one.
      if (form.client_secret) body.client_secret = form.client_secret;
      await props.onSubmit(body);
      setForm({ ...form, client_secret: "" });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label={props.submitLabel}>
      {existing ? null : (
        <Field
          label="Provider id"
          value={form.provider_id}
          onChange={set("provider_id")}
          error={fields.provider_id}
          hint="Letters, digits, '.', '_' and '-'; agents name the provider by it."
        />
      )}
      <Field label="Display name" value={form.name} onChange={set("name")} error={fields.name} />
      <Field label="Client id" value={form.client_id} onChange={set("client_id")} error={fields.client_id} />
      <Field
        label="Client secret"
        type="password"
        value={form.client_secret}
        onChange={set("client_secret")}
        error={fields.client_secret}
        autoComplete="new-password"
        hint={existing?.has_client_secret ? "Stored; leave empty to keep it." : undefined}
      />
      <Field label="Authorization URL" value={form.auth_url} onChange={set("auth_url")} error={fields.auth_url} />
      <Field label="Token URL" value={form.token_url} onChange={set("token_url")} error={fields.token_url} />
      <Field label="Issuer (optional)" value={form.issuer} onChange={set("issuer")} error={fields.issuer} />
      <SelectField
        label="Client authentication"
        value={form.token_endpoint_auth_method}
        options={METHODS}
        onChange={set("token_endpoint_auth_method")}
        error={fields.token_endpoint_auth_method}
      />
      <label className="inline">
        <input
          type="checkbox"
          checked={form.uses_pkce}
          onChange={(event) => setForm({ ...form, uses_pkce: event.target.checked })}
        />{" "}
        Use PKCE (S256)
      </label>
      <ErrorMessage error={error} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : props.submitLabel}
        </button>
      </div>
    </form>
  );
}
