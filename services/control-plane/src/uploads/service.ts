// Source uploads for `langgraph deploy`: a signed, expiring, single-use URL per upload, for an
// internal_source deployment of the caller's tenant; the upload itself needs no other credential.
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { BadRequestError, ForbiddenError, HttpError } from "@lgp/server-kit";
import type { DeploymentRepository } from "../deployments/repository";
import { notFound } from "../deployments/service";
import type { PurposeKeys } from "../secrets/signed-token";
import { signUpload, verifyUpload } from "./signing";
import type { UploadStore } from "./store";

export interface UploadServiceOptions {
  /** The control plane's URL as clients reach it (upload URLs point there). */
  publicUrl: string;
  /** Signs upload URLs; URLs the old keys signed are accepted until they expire. */
  keys: PurposeKeys;
  ttlMs: number;
}

export class UploadService {
  constructor(
    private readonly deployments: DeploymentRepository,
    private readonly store: UploadStore,
    private readonly options: UploadServiceOptions,
  ) {}

  async uploadUrl(
    tenantId: string,
    deploymentId: string,
  ): Promise<{ upload_url: string; object_path: string; max_bytes: number }> {
    const row = await this.deployments.find(tenantId, deploymentId);
    if (!row) throw notFound(deploymentId);
    if (row.source !== "internal_source") {
      throw new BadRequestError(
        `Upload URLs are only available for 'internal_source' source deployments; deployment ${deploymentId} is '${row.source}'`,
      );
    }
    const uploadId = randomUUID();
    const token = signUpload(
      { deploymentId, uploadId, expiresAt: Date.now() + this.options.ttlMs },
      this.options.keys.current,
    );
    return {
      upload_url: `${this.options.publicUrl.replace(/\/$/, "")}/v2/uploads/${token}`,
      object_path: this.store.objectPath(deploymentId, uploadId),
      // Clients (the console) refuse a larger file before sending it.
      max_bytes: this.store.maxBytes,
    };
  }

  async receive(
    token: string,
    declaredBytes: number | undefined,
    body: Readable,
  ): Promise<{ object_path: string; bytes: number }> {
    const grant = verifyUpload(token, [this.options.keys.current, ...this.options.keys.old]);
    if (grant === "invalid") throw new ForbiddenError("This upload URL is not valid");
    if (grant === "expired") throw new ForbiddenError("This upload URL has expired: ask for a new one");
    if (declaredBytes !== undefined && declaredBytes > this.store.maxBytes)
      throw new HttpError(413, `The upload is larger than ${this.store.maxBytes} bytes`);
    const { bytes } = await this.store.receive(grant.deploymentId, grant.uploadId, body);
    return { object_path: this.store.objectPath(grant.deploymentId, grant.uploadId), bytes };
  }
}
