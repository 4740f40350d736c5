import { useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { controlPlane, type AuthenticateResponse, type OAuthProvider } from "../api/control-plane";
import { ApiError } from "../api/errors";
import { Confirm } from "../components/Confirm";
import { ErrorMessage } from "../components/ErrorMessage";
import { Field } from "../components/Field";
import { ProviderForm } from "./ProviderForm";
import { useTitle } from "../components/useTitle";

export function ProviderDetail() {
  const { providerId = "" } = useParams();
  const navigate = useNavigate();
  const [provider, setProvider] = useState<OAuthProvider | null>(null);
  const [error, setError] = useState<unknown>(null);
  useTitle(provider?.name ?? "OAuth provider");
  const [saved, setSaved] = useState(false);
  const [scopes, setScopes] = useState("openid");
  const [userId, setUserId] = useState("");
  const [forceNew, setForceNew] = useState(false);
  const [started, setStarted] = useState<AuthenticateResponse | null>(null);
  useEffect(() => {
    controlPlane.getProvider(providerId).then(setProvider, setError);
  }, [providerId]);

  const start = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setStarted(null);
    try {
      const answer = await controlPlane.authenticate({
        provider: providerId,
        scopes: scopes.split(/[\s,]+/).filter(Boolean),
        user_id: userId.trim() || null,
        force_new: forceNew,
      });
      // Pending: the browser goes to the provider, which sends it back through the control
      // plane to this console's callback page.
      if (answer.status === "pending" && answer.url) window.location.assign(answer.url);
      else setStarted(answer);
    } catch (caught) {
      setError(caught);
    }
  };

  if (!provider) return error ? <ErrorMessage error={error} /> : <p aria-busy="true">Loading…</p>;
  const fields = error instanceof ApiError ? error.fields : {};
  return (
    <section aria-labelledby="provider-title">
      <p>
        <Link to="/oauth">← OAuth providers</Link>
      </p>
      <h1 id="provider-title">{provider.name}</h1>
      <ErrorMessage error={error} />
      <h2>Start an authorization</h2>
      <form className="card form" onSubmit={start} aria-label="Start an authorization">
        <Field label="Scopes" value={scopes} onChange={setScopes} error={fields.scopes} hint="Space separated." />
        <Field label="User id (optional)" value={userId} onChange={setUserId} error={fields.user_id} />
        <label className="inline">
          <input type="checkbox" checked={forceNew} onChange={(event) => setForceNew(event.target.checked)} /> Ask again
          even when a token is stored
        </label>
        <div className="actions">
          <button type="submit">Authorize</button>
        </div>
        {started?.status === "completed" ? (
          <p className="notice" role="status">
            A valid token is already stored for these scopes: nothing to do.
          </p>
        ) : null}
      </form>
      <h2>Settings</h2>
      {saved ? (
        <p className="notice" role="status">
          Saved.
        </p>
      ) : null}
      <ProviderForm
        existing={provider}
        submitLabel="Save provider"
        onSubmit={async (body) => {
          const { provider_id: _unchanged, ...update } = body;
          setProvider(await controlPlane.updateProvider(providerId, update));
          setSaved(true);
        }}
      />
      <h2>Danger zone</h2>
      <Confirm
        label="Delete…"
        confirmLabel="Delete provider"
        question="Delete this provider with its pending authorizations and stored tokens?"
        onConfirm={async () => {
          try {
            await controlPlane.deleteProvider(providerId);
            navigate("/oauth");
          } catch (caught) {
            setError(caught);
          }
        }}
      />
    </section>
  );
}
