import { Link, useSearchParams } from "react-router";
import { session } from "../api/session";
import { useTitle } from "../components/useTitle";

/**
 * The frontend callback page: the control plane sends the browser here after an OAuth exchange,
 * with `status`, `provider_id` and, on failure, `error` and `error_description`. It needs no key:
 * the browser may arrive from the provider in a fresh tab.
 */
export function OAuthCallback() {
  const [params] = useSearchParams();
  const ok = params.get("status") === "completed";
  const provider = params.get("provider_id");
  const error = params.get("error");
  const description = params.get("error_description");
  useTitle(ok ? "Connected" : "Connection failed");
  return (
    <main className="signin">
      <div className={`card callback ${ok ? "ok" : "failed"}`} role={ok ? "status" : "alert"}>
        <h1>
          {ok
            ? `Connected${provider ? ` to ${provider}` : ""}`
            : `Connection${provider ? ` to ${provider}` : ""} failed`}
        </h1>
        {ok ? (
          <p>The authorization succeeded and its token is stored. You can close this window.</p>
        ) : (
          <p>
            {description ?? "The authorization did not complete."}
            {error ? (
              <>
                {" "}
                (<code>{error}</code>)
              </>
            ) : null}{" "}
            You can try again from the provider's page.
          </p>
        )}
        {session.apiKey() && provider ? (
          <Link to={`/oauth/providers/${encodeURIComponent(provider)}`}>Back to {provider}</Link>
        ) : session.apiKey() ? (
          <Link to="/oauth">Back to OAuth providers</Link>
        ) : null}
      </div>
    </main>
  );
}
