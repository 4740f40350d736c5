import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { controlPlane, type OAuthProvider } from "../api/control-plane";
import { ErrorMessage } from "../components/ErrorMessage";
import { formatTime } from "../components/time";
import { ProviderForm } from "./ProviderForm";
import { useTitle } from "../components/useTitle";

export function Providers() {
  const navigate = useNavigate();
  const [providers, setProviders] = useState<OAuthProvider[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  useTitle("OAuth providers");
  useEffect(() => {
    controlPlane.listProviders().then(setProviders, setError);
  }, []);
  return (
    <section aria-labelledby="providers-title">
      <div className="heading">
        <h1 id="providers-title">OAuth providers</h1>
        {creating ? null : (
          <button type="button" onClick={() => setCreating(true)}>
            New provider
          </button>
        )}
      </div>
      <p className="hint">
        Agents get users' tokens for these providers through <code>/v2/auth/authenticate</code>; the browser comes back
        to this console's callback page.
      </p>
      <ErrorMessage error={error} />
      {creating ? (
        <ProviderForm
          submitLabel="Create provider"
          onSubmit={async (body) => {
            const created = await controlPlane.createProvider(body);
            navigate(`/oauth/providers/${encodeURIComponent(created.provider_id)}`);
          }}
        />
      ) : null}
      {providers && providers.length === 0 && !creating ? <p className="empty">No providers yet.</p> : null}
      {providers && providers.length > 0 ? (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Name</th>
              <th scope="col">Client authentication</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {providers.map((provider) => (
              <tr key={provider.id}>
                <td data-label="Provider">
                  <Link to={`/oauth/providers/${encodeURIComponent(provider.provider_id)}`}>
                    {provider.provider_id}
                  </Link>
                </td>
                <td data-label="Name">{provider.name}</td>
                <td data-label="Client authentication">
                  {provider.token_endpoint_auth_method}
                  {provider.uses_pkce ? " + PKCE" : ""}
                </td>
                <td data-label="Created">{formatTime(provider.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
