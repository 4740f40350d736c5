// How a cluster pulls a deployment's images from the configured registry: with a pull credential
// of that deployment (no expiry, valid while the deployment exists), as a docker config entry.
import { signCredential } from "./credentials";
import { deploymentRepository, splitRegistryUrl, type RegistrySettings } from "./settings";

export interface PullCredential {
  /** The registry host, as image references and docker config entries name it. */
  registry: string;
  username: string;
  password: string;
}

export interface ImagePullAccess {
  /** Whether the image is one of this deployment's images in the registry (so pulling it needs the credential). */
  holds(deploymentId: string, image: string): boolean;
  credential(tenantId: string, deploymentId: string): PullCredential;
}

export function imagePullAccess(settings: RegistrySettings): ImagePullAccess {
  const { host } = splitRegistryUrl(settings.url);
  return {
    holds: (deploymentId, image) => image.startsWith(`${deploymentRepository(settings.url, deploymentId)}/`),
    credential: (tenantId, deploymentId) => ({
      registry: host,
      username: "oauth2accesstoken",
      password: signCredential({ tenantId, deploymentId, actions: ["pull"] }, settings.credentialKey),
    }),
  };
}
