// A project archive picked in the browser: what it is (by its first bytes, not its name), and the
// upload exchange `langgraph deploy` uses (upload URL, PUT, PATCH naming the object path).
import { controlPlane } from "../api/control-plane";
import { ApiError } from "../api/errors";

export const ARCHIVE_ACCEPT = ".tar.gz,.tgz,.zip,application/gzip,application/zip";

/** The control plane's default UPLOAD_MAX_BYTES (the official CLI sends at most as much). */
export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;

type ArchiveKind = "gzip" | "zip";
const CONTENT_TYPE: Record<ArchiveKind, string> = { gzip: "application/gzip", zip: "application/zip" };

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [size, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / 1024 / 1024, "MB"];
  return `${size.toFixed(1).replace(/\.0$/, "")} ${unit}`;
}

/** A refusal of the picked file, shown beside the archive field and as the form's alert. */
const refused = (message: string) => new ApiError(422, message, { archive: message });

/** The archive's kind, or a sentence saying why it cannot be sent (before anything is created). */
export async function checkArchive(file: File | null): Promise<ArchiveKind> {
  if (!file) throw refused("Choose the project's .tar.gz or .zip archive.");
  if (file.size === 0) throw refused(`${file.name} is empty.`);
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5)) return "zip";
  throw refused(
    `${file.name} is not a .tar.gz or .zip archive. Pack the project folder first, e.g. tar -czf project.tar.gz -C my-project .`,
  );
}

/** The control plane's sentence continued after a colon: lower-case first letter, a full stop. */
const sentence = (text: string) => `${text.charAt(0).toLowerCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;

export interface Progress {
  sent: number;
  total: number;
}

/**
 * Uploads `file` as the deployment's source and starts the revision that builds it: a fresh upload
 * URL (they are single use), the size checked against its limit, the PUT with progress, then the
 * PATCH. Answers the new revision's id.
 */
export async function deployArchive(
  deploymentId: string,
  file: File | null,
  configPath: string,
  onProgress: (progress: Progress) => void,
  signal?: AbortSignal,
): Promise<string | null> {
  const kind = await checkArchive(file);
  const archive = file as File;
  const { upload_url, object_path, max_bytes = DEFAULT_MAX_BYTES } = await controlPlane.requestUploadUrl(deploymentId);
  if (archive.size > max_bytes)
    throw refused(
      `${archive.name} is ${formatBytes(archive.size)}: this control plane accepts archives of at most ${formatBytes(max_bytes)}.`,
    );
  onProgress({ sent: 0, total: archive.size });
  try {
    await controlPlane.putArchive(
      upload_url,
      archive,
      CONTENT_TYPE[kind],
      (sent, total) => onProgress({ sent, total }),
      signal,
    );
  } catch (caught) {
    // The control plane's sentence (link, path outside the root, damaged...), about this file.
    if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500)
      throw refused(`${archive.name} was refused: ${sentence(caught.message)}`);
    throw caught;
  }
  const deployment = await controlPlane.updateDeployment(deploymentId, {
    revision_source: "internal_source",
    source_revision_config: { source_tarball_path: object_path, langgraph_config_path: configPath.trim() || undefined },
  });
  return deployment.latest_revision_id ?? null;
}
