// A real OAuth 2.0 / OpenID Connect provider (the `oidc-provider` package) on loopback, for the
// OAuth tests. It is ESM-only, so it runs in its own process: clients come from the OIDC_CLIENTS
// environment variable (JSON), and the first stdout line is `{"issuer": "http://127.0.0.1:<port>"}`.
// Log-in and consent use the package's own development interactions (/interaction/:uid).
import http from "node:http";
import process from "node:process";
import Provider from "oidc-provider";

const clients = JSON.parse(process.env.OIDC_CLIENTS ?? "[]");
const server = http.createServer();
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients,
  scopes: ["openid", "offline_access", "repo", "read:user"],
  claims: { openid: ["sub"] },
  findAccount: async (_ctx, accountId) => ({ accountId, claims: async () => ({ sub: accountId }) }),
  // Every code grant gets a refresh token, so refresh can be tested without offline_access.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  cookies: { keys: ["oauth-test-cookie-key"] },
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 60,
    RefreshToken: 86400,
    Grant: 86400,
    Interaction: 600,
    Session: 86400,
  },
  features: { devInteractions: { enabled: true }, introspection: { enabled: true } },
  renderError: async (ctx, out) => {
    ctx.type = "json";
    ctx.body = out;
  },
});
// The development interactions print a warning on every start; the tests do not need it.
provider.on("server_error", (_ctx, error) => process.stderr.write(`oidc-provider: ${error.stack}\n`));
server.on("request", provider.callback());

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The test process went away without stopping us: do not linger.
process.stdin.on("end", stop);
process.stdin.resume();
