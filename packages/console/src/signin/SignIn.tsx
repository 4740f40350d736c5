import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { controlPlane } from "../api/control-plane";
import { session } from "../api/session";
import { ErrorMessage } from "../components/ErrorMessage";
import { Field } from "../components/Field";
import { useTitle } from "../components/useTitle";

export function SignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const [key, setKey] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useTitle("Sign in");
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The key is checked against the API before it is kept.
      await controlPlane.tenant(key.trim());
      session.signIn(key.trim());
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== "/sign-in" ? from : "/deployments", { replace: true });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="signin">
      <form onSubmit={submit} className="card" aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to the console</h1>
        <p>
          Use a control plane API key (<code>npm start</code> prints one on its <code>control plane key</code> line). It
          is kept in this browser tab only.
        </p>
        <Field label="API key" type="password" value={key} onChange={setKey} required autoComplete="off" />
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy || !key.trim()}>
          {busy ? "Checking…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
