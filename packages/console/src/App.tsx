import { Fragment, lazy, Suspense } from "react";
import { Navigate, Route, Routes, useLocation, useParams } from "react-router";
import { Layout } from "./components/Layout";
import { SignIn } from "./signin/SignIn";
import { DeploymentList } from "./deployments/DeploymentList";
import { CreateDeployment } from "./deployments/CreateDeployment";
import { DeploymentDetail } from "./deployments/DeploymentDetail";
import { RevisionDetail } from "./revisions/RevisionDetail";
import { Providers } from "./oauth/Providers";
import { ProviderDetail } from "./oauth/ProviderDetail";
import { OAuthCallback } from "./oauth/Callback";
import { Playground } from "./playground/Playground";
import { session } from "./api/session";

// The monitoring view brings the chart library: loaded when first opened, not with every screen.
const Monitoring = lazy(() => import("./monitoring/Monitoring").then((module) => ({ default: module.Monitoring })));

/** Every page but sign-in and the OAuth callback needs a key; without one, sign in and come back. */
function SignedIn({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  if (!session.apiKey()) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <Layout>{children}</Layout>;
}

/**
 * A screen remounted (its state dropped) when the route's parameter changes: a link from one
 * revision to another must not show the first one's data, nor send its key elsewhere.
 */
function Keyed({ by, children }: { by: string; children: React.ReactNode }) {
  const params = useParams();
  return <Fragment key={params[by]}>{children}</Fragment>;
}

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignIn />} />
      <Route path="/oauth/callback" element={<OAuthCallback />} />
      <Route path="/" element={<Navigate to="/deployments" replace />} />
      <Route
        path="/deployments"
        element={
          <SignedIn>
            <DeploymentList />
          </SignedIn>
        }
      />
      <Route
        path="/deployments/new"
        element={
          <SignedIn>
            <CreateDeployment />
          </SignedIn>
        }
      />
      <Route
        path="/deployments/:deploymentId"
        element={
          <SignedIn>
            <Keyed by="deploymentId">
              <DeploymentDetail />
            </Keyed>
          </SignedIn>
        }
      />
      <Route
        path="/deployments/:deploymentId/revisions/:revisionId"
        element={
          <SignedIn>
            <Keyed by="revisionId">
              <RevisionDetail />
            </Keyed>
          </SignedIn>
        }
      />
      <Route
        path="/deployments/:deploymentId/playground/*"
        element={
          <SignedIn>
            <Keyed by="deploymentId">
              <Playground />
            </Keyed>
          </SignedIn>
        }
      />
      <Route
        path="/deployments/:deploymentId/monitoring"
        element={
          <SignedIn>
            <Keyed by="deploymentId">
              <Suspense fallback={<p aria-busy="true">Loading…</p>}>
                <Monitoring />
              </Suspense>
            </Keyed>
          </SignedIn>
        }
      />
      <Route
        path="/oauth"
        element={
          <SignedIn>
            <Providers />
          </SignedIn>
        }
      />
      <Route
        path="/oauth/providers/:providerId"
        element={
          <SignedIn>
            <Keyed by="providerId">
              <ProviderDetail />
            </Keyed>
          </SignedIn>
        }
      />
      <Route
        path="*"
        element={
          <SignedIn>
            <p role="alert">There is no such page.</p>
          </SignedIn>
        }
      />
    </Routes>
  );
}
