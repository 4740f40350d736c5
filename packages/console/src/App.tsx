import { Navigate, Route, Routes, useLocation } from "react-router";
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

/** Every page but sign-in and the OAuth callback needs a key; without one, sign in and come back. */
function SignedIn({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  if (!session.apiKey()) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <Layout>{children}</Layout>;
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
            <DeploymentDetail />
          </SignedIn>
        }
      />
      <Route
        path="/deployments/:deploymentId/revisions/:revisionId"
        element={
          <SignedIn>
            <RevisionDetail />
          </SignedIn>
        }
      />
      <Route
        path="/deployments/:deploymentId/playground/*"
        element={
          <SignedIn>
            <Playground />
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
            <ProviderDetail />
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
