/** A status with its colour: green when serving, red when failed, amber while moving. */
export function StatusBadge({ status }: { status: string }) {
  const tone = /FAILED|INTERRUPTED|UNKNOWN/.test(status)
    ? "bad"
    : status === "DEPLOYED" || status === "READY"
      ? "good"
      : status === "SKIPPED" || status === "UNUSED"
        ? "quiet"
        : "busy";
  return <span className={`badge ${tone}`}>{status}</span>;
}
