import { useEffect, useRef, useState } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { controlPlane, type Tenant } from "../api/control-plane";
import { ApiError } from "../api/errors";
import { session } from "../api/session";

export function Layout({ children }: { children: React.ReactNode }) {
  const navigate = useNavigate();
  const [tenant, setTenant] = useState<Tenant | null>(null);
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  // A new screen: focus goes to its content, where a screen reader then starts (not the old page's button).
  useEffect(() => main.current?.focus({ preventScroll: false }), [pathname]);
  useEffect(() => {
    controlPlane.tenant().then(setTenant, (error) => {
      // A key revoked since sign-in: back to sign in rather than errors on every screen.
      if (error instanceof ApiError && error.status === 401) {
        session.signOut();
        navigate("/sign-in", { replace: true });
      }
    });
  }, [navigate]);
  const signOut = () => {
    session.signOut();
    navigate("/sign-in");
  };
  return (
    <div className="shell">
      <header className="topbar">
        <NavLink to="/deployments" className="brand">
          LangGraph Platform
        </NavLink>
        <nav aria-label="Main">
          <NavLink to="/deployments">Deployments</NavLink>
          <NavLink to="/oauth">OAuth</NavLink>
        </nav>
        <span className="tenant">
          <span className="tenant-label">tenant</span> {tenant ? tenant.name : "…"}
        </span>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main className="content" ref={main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
