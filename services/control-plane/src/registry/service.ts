// The registry side of `langgraph deploy`: push tokens for internal_docker deployments, and the
// token endpoint a Docker registry (`auth.token.realm`) sends clients to. A registry JWT grants a
// credential's deployment's repositories and nothing else, and only while the deployment exists.
import { randomUUID } from "node:crypto";
import { BadRequestError, HttpError, type Logger } from "@lgp/server-kit";
import type { DeploymentRepository } from "../deployments/repository";
import { notFound } from "../deployments/service";
import { signCredential, verifyCredential, type RegistryCredential } from "./credentials";
import { signJwt } from "./jwt";
import { grant, parseScope, type AccessEntry } from "./scope";
import { deploymentRepository, splitRegistryUrl, type RegistrySettings } from "./settings";

/** How long one registry JWT lives; clients ask again with their credential when it expires. */
export const REGISTRY_JWT_TTL_SECONDS = 300;

export interface RegistryToken {
  token: string;
  access_token: string;
  expires_in: number;
  issued_at: string;
}

export class RegistryService {
  /** The registry's path below its host (repository names in scopes start with it). */
  private readonly path: string;

  constructor(
    private readonly deployments: DeploymentRepository,
    /** Absent when no registry is configured: push tokens are then a 501 saying how to configure one. */
    private readonly settings: RegistrySettings | undefined,
    private readonly logger: Logger,
  ) {
    this.path = splitRegistryUrl(settings?.url ?? "").path;
  }

  /**
   * `langgraph deploy`'s push token. Refused for sources that do not push an image (the CLI looks
   * for this message); without a configured registry, a 501 saying what to configure.
   */
  async pushToken(tenantId: string, deploymentId: string): Promise<{ token: string; registry_url: string }> {
    const row = await this.deployments.find(tenantId, deploymentId);
    if (!row) throw notFound(deploymentId);
    if (row.source !== "internal_docker") {
      throw new BadRequestError(
        `Push tokens are only available for 'internal_docker' source deployments; deployment ${deploymentId} is '${row.source}'`,
      );
    }
    if (!this.settings) {
      throw new HttpError(
        501,
        "This control plane has no container registry configured (REGISTRY_URL and REGISTRY_TOKEN_KEY_FILE): " +
          "configure one, or push the image to a registry its runtimes can pull from and PATCH source_revision_config.image_uri",
      );
    }
    const token = signCredential(
      { tenantId, deploymentId, actions: ["pull", "push"], expiresAt: Date.now() + this.settings.pushTokenTtlMs },
      this.settings.credentialKey,
    );
    this.logger.info({ deploymentId }, "push token issued");
    // The CLI pushes `<registry_url>/<name>:<tag>`.
    return { token, registry_url: deploymentRepository(this.settings.url, deploymentId) };
  }

  /**
   * The token endpoint: Basic credentials (any user name; the password is a push token or pull
   * credential) for a JWT granting what the credential holds of the requested scopes.
   */
  async issue(
    authorization: string | undefined,
    service: string | undefined,
    scopes: string[],
  ): Promise<RegistryToken> {
    if (!this.settings) throw new HttpError(404, "No container registry is configured");
    if (service !== undefined && service !== this.settings.service)
      throw new BadRequestError(
        `Unknown registry service '${service}'; this token server serves '${this.settings.service}'`,
      );
    const credential = await this.credentialOf(authorization);
    const access = scopes
      .map(parseScope)
      .map((entry) => entry && grant(entry, this.path, credential.deploymentId, credential.actions))
      .filter((entry): entry is AccessEntry => entry !== undefined);
    const now = Math.floor(Date.now() / 1000);
    const token = signJwt(
      {
        iss: this.settings.issuer,
        sub: `deployment:${credential.deploymentId}`,
        aud: this.settings.service,
        exp: now + REGISTRY_JWT_TTL_SECONDS,
        nbf: now - 10,
        iat: now,
        jti: randomUUID(),
        access,
      },
      this.settings.signingKey,
    );
    this.logger.debug({ deploymentId: credential.deploymentId, access }, "registry token issued");
    return {
      token,
      access_token: token,
      expires_in: REGISTRY_JWT_TTL_SECONDS,
      issued_at: new Date(now * 1000).toISOString(),
    };
  }

  private async credentialOf(authorization: string | undefined): Promise<RegistryCredential> {
    const challenge = { "WWW-Authenticate": `Basic realm="${this.settings!.service}"` };
    const refuse = (detail: string) => new HttpError(401, detail, challenge);
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
    if (!match) throw refuse("Log in with a push token or pull credential as the password");
    const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
    const password = decoded.slice(decoded.indexOf(":") + 1);
    const { credentialKey, oldCredentialKeys = [] } = this.settings!;
    const credential = verifyCredential(password, [credentialKey, ...oldCredentialKeys]);
    if (credential === "invalid") throw refuse("This registry credential is not valid");
    if (credential === "expired")
      throw refuse("This push token has expired: ask for a new one (POST /v2/deployments/{id}/push-token)");
    const row = await this.deployments.find(credential.tenantId, credential.deploymentId);
    if (!row || row.status === "AWAITING_DELETE") throw refuse("The deployment of this credential no longer exists");
    return credential;
  }
}
