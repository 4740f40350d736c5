/** The default frontend callback page: says whether the connection worked and that the window may close. */
export function renderDonePage(query: {
  status?: string;
  provider_id?: string;
  error?: string;
  error_description?: string;
}): string {
  const ok = query.status === "completed";
  const provider = query.provider_id ? ` to ${query.provider_id}` : "";
  const title = ok ? `Connected${provider}` : `Connection${provider} failed`;
  const detail = ok
    ? "The authorization succeeded. You can close this window and return to your application."
    : `${query.error_description ?? "The authorization did not complete."}${query.error ? ` (${query.error})` : ""} You can close this window and try again from your application.`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; display: flex; min-height: 100vh; margin: 0; align-items: center; justify-content: center; background: #f6f7f9; color: #1f2328; }
  main { background: #fff; border-radius: 12px; padding: 2rem 2.5rem; max-width: 32rem; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin: 0 0 .75rem; color: ${ok ? "#1a7f37" : "#cf222e"}; }
  p { line-height: 1.5; margin: 0; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(detail)}</p>
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
