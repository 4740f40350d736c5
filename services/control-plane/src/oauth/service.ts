import { ConflictError, invalid, NotFoundError, outboundFetch } from "@lgp/server-kit";
import type { Logger, OutboundFetch, OutboundPolicy } from "@lgp/server-kit";
import type { Db } from "../db";
import type { SecretCipher } from "../secrets/cipher";
import { OAuthRepository, type OAuthProvider } from "./repository";
import {
  generateCodeVerifier,
  generateState,
  hashState,
  s256Challenge,
  STATE_PROBLEM_TEXT,
  STATE_TTL_MS,
  type StateProblem,
} from "./state";
import { exchangeCode, isLoopbackHttp, TokenExchangeError } from "./token-exchange";
import { providerEndpoint, TokenVault } from "./tokens";
import {
  toProviderView,
  toTokenView,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type ProviderCreate,
  type ProviderUpdate,
  type ProviderView,
  type TokenView,
  type WaitResponse,
} from "./views";
import { CompletionSignal } from "./waiter";

export interface OAuthServiceOptions {
  db: Db;
  cipher: SecretCipher;
  logger: Logger;
  /** Where this control plane is reachable from a browser: redirect URIs are built on it. */
  publicUrl: string;
  /** The page the callback sends the browser to. */
  frontendCallbackUrl: string;
  /** Accept providers at plain-http loopback URLs (development and tests only). */
  allowHttpLoopback: boolean;
  /** What token endpoints may be (OUTBOUND_ALLOW, and loopback with allowHttpLoopback). */
  outbound?: OutboundPolicy;
}

/** The longest a `wait` holds a request. */
export const MAX_WAIT_SECONDS = 60;
/** How often a `wait` re-reads the database (a callback on another replica). */
const POLL_MS = 500;
/** Finished or abandoned authorizations are forgotten after a day. */
const AUTHORIZATION_RETENTION_MS = 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NEEDS_SECRET = new Set(["client_secret_post", "client_secret_basic"]);

/** The parameters the frontend callback page receives. */
export interface CallbackOutcome {
  status: "completed" | "failed";
  provider_id: string;
  auth_id?: string;
  error?: string;
  error_description?: string;
}

function clip(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** Authorization and token endpoints must be https (plain http only on this machine, when allowed). */
function checkEndpointUrl(field: string, value: string, allowHttpLoopback: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(["body", field], "must be an absolute URL");
  }
  if (url.protocol !== "https:" && !(allowHttpLoopback && isLoopbackHttp(url))) {
    throw invalid(
      ["body", field],
      allowHttpLoopback
        ? "must be an https URL (plain http is accepted only for localhost)"
        : "must be an https URL (set OAUTH_ALLOW_HTTP_LOOPBACK=true for a provider on localhost)",
    );
  }
  if (url.hash) throw invalid(["body", field], "must not have a fragment");
  return url.toString();
}

function checkIssuer(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (!URL.canParse(value)) throw invalid(["body", "issuer"], "must be an absolute URL");
  return value;
}

export class OAuthService {
  private readonly repository: OAuthRepository;
  private readonly vault: TokenVault;
  private readonly completions = new CompletionSignal();

  /** Calls to token endpoints (a tenant's URLs) under the outbound policy. */
  private readonly tokenFetch?: OutboundFetch;

  constructor(private readonly options: OAuthServiceOptions) {
    this.repository = new OAuthRepository(options.db);
    this.tokenFetch = options.outbound && outboundFetch(options.outbound);
    this.vault = new TokenVault(
      this.repository,
      options.cipher,
      options.logger,
      options.allowHttpLoopback,
      this.tokenFetch,
    );
  }
  /** The server calls the token endpoint: a literal address the outbound policy refuses is a 422. */
  private checkTokenUrl(url: string): string {
    const refusal = this.options.outbound?.urlRefusal(url);
    if (refusal) throw invalid(["body", "token_url"], `${refusal} (OUTBOUND_ALLOW can allow it)`);
    return url;
  }

  // Providers

  async listProviders(tenantId: string): Promise<ProviderView[]> {
    return (await this.repository.listProviders(tenantId)).map(toProviderView);
  }

  async getProvider(tenantId: string, providerId: string): Promise<ProviderView> {
    return toProviderView(await this.requireProvider(tenantId, providerId));
  }

  async createProvider(tenantId: string, body: ProviderCreate): Promise<ProviderView> {
    const method = body.token_endpoint_auth_method ?? "client_secret_post";
    if (NEEDS_SECRET.has(method) && !body.client_secret) {
      throw invalid(["body", "client_secret"], `is required when token_endpoint_auth_method is ${method}`);
    }
    if (await this.repository.findProvider(tenantId, body.provider_id)) {
      throw new ConflictError(`OAuth provider ${body.provider_id} already exists`);
    }
    try {
      const row = await this.repository.createProvider({
        tenantId,
        providerId: body.provider_id,
        name: body.name,
        clientId: body.client_id,
        clientSecretEncrypted: body.client_secret ? this.options.cipher.encrypt(body.client_secret) : null,
        authUrl: checkEndpointUrl("auth_url", body.auth_url, this.options.allowHttpLoopback),
        tokenUrl: this.checkTokenUrl(checkEndpointUrl("token_url", body.token_url, this.options.allowHttpLoopback)),
        issuer: checkIssuer(body.issuer) ?? null,
        usesPkce: body.uses_pkce ?? false,
        codeChallengeMethod: "S256",
        tokenEndpointAuthMethod: method,
      });
      return toProviderView(row);
    } catch (error) {
      // Two creations racing past the check above: the unique index decides.
      if ((error as { code?: string }).code === "P2002") {
        throw new ConflictError(`OAuth provider ${body.provider_id} already exists`);
      }
      throw error;
    }
  }

  async updateProvider(tenantId: string, providerId: string, body: ProviderUpdate): Promise<ProviderView> {
    const current = await this.requireProvider(tenantId, providerId);
    const method = body.token_endpoint_auth_method ?? current.tokenEndpointAuthMethod;
    const secretAfter =
      body.client_secret === undefined ? current.clientSecretEncrypted !== null : !!body.client_secret;
    if (NEEDS_SECRET.has(method) && !secretAfter) {
      throw invalid(["body", "client_secret"], `is required when token_endpoint_auth_method is ${method}`);
    }
    const row = await this.repository.updateProvider(current.id, {
      name: body.name,
      clientId: body.client_id,
      clientSecretEncrypted:
        body.client_secret === undefined
          ? undefined
          : body.client_secret
            ? this.options.cipher.encrypt(body.client_secret)
            : null,
      authUrl:
        body.auth_url === undefined
          ? undefined
          : checkEndpointUrl("auth_url", body.auth_url, this.options.allowHttpLoopback),
      tokenUrl:
        body.token_url === undefined
          ? undefined
          : this.checkTokenUrl(checkEndpointUrl("token_url", body.token_url, this.options.allowHttpLoopback)),
      issuer: checkIssuer(body.issuer),
      usesPkce: body.uses_pkce,
      tokenEndpointAuthMethod: body.token_endpoint_auth_method,
    });
    return toProviderView(row);
  }

  async deleteProvider(tenantId: string, providerId: string): Promise<{ message: string }> {
    if (!(await this.repository.deleteProvider(tenantId, providerId))) throw this.providerNotFound(providerId);
    return { message: `OAuth provider ${providerId} deleted` };
  }

  // Authorization

  /**
   * Answers a stored token that covers the scopes (refreshed if it expired), or starts an
   * authorization-code flow: a single-use `state` bound to a new authorization of this tenant
   * and provider, plus a PKCE verifier when the provider uses PKCE.
   */
  async authenticate(tenantId: string, body: AuthenticateRequest): Promise<AuthenticateResponse> {
    const provider = await this.requireProvider(tenantId, body.provider);
    const scopes = [...new Set(body.scopes)];
    const userId = body.user_id ?? null;

    if (!body.force_new) {
      for (const row of await this.repository.findUserTokens(tenantId, provider.id, userId)) {
        if (!scopes.every((scope) => row.scopes.includes(scope))) continue;
        const fresh = await this.vault.read(row);
        if (fresh.usable) return { status: "completed", token: fresh.accessToken };
      }
    }

    const now = new Date();
    await this.repository.pruneAuthorizations(tenantId, new Date(now.getTime() - AUTHORIZATION_RETENTION_MS));
    const state = generateState();
    const verifier = provider.usesPkce ? generateCodeVerifier() : null;
    const authorization = await this.repository.createAuthorization({
      tenantId,
      providerId: provider.id,
      userId,
      scopes,
      stateHash: hashState(state),
      codeVerifierEncrypted: verifier ? this.options.cipher.encrypt(verifier) : null,
      expiresAt: new Date(now.getTime() + STATE_TTL_MS),
    });

    const url = new URL(provider.authUrl);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", provider.clientId);
    url.searchParams.set("redirect_uri", this.redirectUri(provider.providerId));
    if (scopes.length) url.searchParams.set("scope", scopes.join(" "));
    url.searchParams.set("state", state);
    if (verifier) {
      url.searchParams.set("code_challenge", s256Challenge(verifier));
      url.searchParams.set("code_challenge_method", "S256");
    }
    return { status: "pending", url: url.toString(), auth_id: authorization.id };
  }

  /**
   * The provider's redirect. `state` must match a pending authorization of this provider, unused
   * and unexpired; it is then spent, whatever follows. Only then is `code` exchanged. The answer
   * is what the frontend callback page is told; nothing here throws for bad input.
   */
  async handleCallback(providerSlug: string, query: Record<string, string | undefined>): Promise<CallbackOutcome> {
    const failed = (error: string, description: string, authId?: string): CallbackOutcome => ({
      status: "failed",
      provider_id: providerSlug,
      auth_id: authId,
      error,
      error_description: description,
    });
    const refuse = (problem: StateProblem, authId?: string) => {
      this.options.logger.warn({ provider_id: providerSlug, auth_id: authId, problem }, "OAuth callback state refused");
      return failed("invalid_state", STATE_PROBLEM_TEXT[problem], authId);
    };

    if (!query.state) return refuse("missing");
    const authorization = await this.repository.findAuthorizationByStateHash(hashState(query.state));
    if (!authorization) return refuse("unknown");
    // Another provider's state says nothing about this callback: it stays usable for its own.
    if (authorization.provider.providerId !== providerSlug) return refuse("other_provider");
    if (authorization.stateUsedAt) return refuse("replayed", authorization.id);
    const now = new Date();
    if (authorization.expiresAt <= now) {
      await this.finish(authorization.id, {
        status: "failed",
        error: "expired",
        errorDescription: STATE_PROBLEM_TEXT.expired,
      });
      return refuse("expired", authorization.id);
    }
    if (!(await this.repository.claimState(authorization.id, now))) return refuse("replayed", authorization.id);

    if (query.error) {
      const error = clip(query.error, 200);
      const description = clip(query.error_description ?? "The provider refused the authorization.", 1000);
      await this.finish(authorization.id, { status: "failed", error, errorDescription: description });
      return failed(error, description, authorization.id);
    }
    if (!query.code) {
      const description = "The callback carries neither a code nor an error.";
      await this.finish(authorization.id, {
        status: "failed",
        error: "invalid_request",
        errorDescription: description,
      });
      return failed("invalid_request", description, authorization.id);
    }

    const provider = authorization.provider;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
    try {
      const tokens = await exchangeCode(
        providerEndpoint(this.options.cipher, provider, this.options.allowHttpLoopback, this.tokenFetch),
        params,
        query.state,
        this.redirectUri(provider.providerId),
        authorization.codeVerifierEncrypted ? this.options.cipher.decrypt(authorization.codeVerifierEncrypted) : null,
      );
      const token = await this.repository.storeToken({
        tenantId: authorization.tenantId,
        providerId: provider.id,
        userId: authorization.userId,
        scopes: authorization.scopes,
        tokenType: tokens.tokenType,
        expiresAt: tokens.expiresAt,
        ...this.vault.encrypt(tokens),
      });
      await this.finish(authorization.id, { status: "completed", tokenId: token.id });
      return { status: "completed", provider_id: providerSlug, auth_id: authorization.id };
    } catch (error) {
      if (!(error instanceof TokenExchangeError)) {
        // Ours, not the provider's (the database, a key): the authorization fails now rather than
        // leaving `wait` to poll until it expires, and the browser still lands on the frontend page.
        this.options.logger.error({ err: error, auth_id: authorization.id }, "OAuth callback could not complete");
        const description = "The authorization could not be completed; try again.";
        await this.finish(authorization.id, {
          status: "failed",
          error: "server_error",
          errorDescription: description,
        }).catch(() => {});
        return failed("server_error", description, authorization.id);
      }
      this.options.logger.warn(
        { provider_id: providerSlug, auth_id: authorization.id, error: error.error },
        "OAuth code exchange failed",
      );
      await this.finish(authorization.id, {
        status: "failed",
        error: error.error,
        errorDescription: error.errorDescription,
      });
      return failed(error.error, error.errorDescription, authorization.id);
    }
  }

  /** The frontend callback page's URL with the outcome as query parameters. */
  frontendRedirect(outcome: CallbackOutcome): string {
    const url = new URL(this.options.frontendCallbackUrl);
    for (const [key, value] of Object.entries(outcome)) if (value !== undefined) url.searchParams.set(key, value);
    return url.toString();
  }

  /**
   * Long-poll: answers as soon as the authorization completes or fails, `timeout` after
   * `timeoutSeconds` (at most MAX_WAIT_SECONDS), or when `signal` aborts (client gone, shutdown).
   */
  async wait(tenantId: string, authId: string, timeoutSeconds: number, signal?: AbortSignal): Promise<WaitResponse> {
    if (!UUID.test(authId)) return { status: "not_found" };
    const deadline = Date.now() + Math.min(Math.max(timeoutSeconds, 0), MAX_WAIT_SECONDS) * 1000;
    for (;;) {
      const authorization = await this.repository.findAuthorization(tenantId, authId);
      if (!authorization) return { status: "not_found" };
      if (authorization.status === "completed") {
        const row = authorization.tokenId ? await this.repository.findToken(tenantId, authorization.tokenId) : null;
        return { status: "completed", token: row ? (await this.vault.read(row)).accessToken : null };
      }
      if (authorization.status === "failed") {
        return { status: "failed", error: authorization.error, error_description: authorization.errorDescription };
      }
      if (authorization.expiresAt.getTime() <= Date.now()) {
        return { status: "failed", error: "expired", error_description: STATE_PROBLEM_TEXT.expired };
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal?.aborted) return { status: timeoutSeconds > 0 ? "timeout" : "pending" };
      await this.completions.sleep(authId, Math.min(POLL_MS, remaining), signal);
    }
  }

  // Tokens

  async listTokens(tenantId: string, filter: { providerId?: string; userId?: string }): Promise<TokenView[]> {
    const provider = filter.providerId ? await this.requireProvider(tenantId, filter.providerId) : undefined;
    const rows = await this.repository.listTokens(tenantId, { providerId: provider?.id, userId: filter.userId });
    const views: TokenView[] = [];
    for (const row of rows) {
      const fresh = await this.vault.read(row);
      views.push(toTokenView(fresh.row, row.provider.providerId, fresh.accessToken));
    }
    return views;
  }

  async deleteTokens(
    tenantId: string,
    filter: { providerId: string; userId?: string },
  ): Promise<{ message: string; provider_id: string; deleted: number }> {
    const provider = await this.requireProvider(tenantId, filter.providerId);
    const deleted = await this.repository.deleteTokens(tenantId, { providerId: provider.id, userId: filter.userId });
    return { message: `Deleted ${deleted} token(s)`, provider_id: filter.providerId, deleted };
  }

  async deleteToken(tenantId: string, tokenId: string): Promise<void> {
    if (!(await this.repository.deleteToken(tenantId, tokenId)))
      throw new NotFoundError(`OAuth token ${tokenId} not found`);
  }

  // Helpers

  private redirectUri(providerSlug: string): string {
    return `${this.options.publicUrl.replace(/\/+$/, "")}/v2/auth/callback/${encodeURIComponent(providerSlug)}`;
  }

  private async finish(
    authId: string,
    outcome: { status: "completed"; tokenId: string } | { status: "failed"; error: string; errorDescription: string },
  ): Promise<void> {
    await this.repository.finishAuthorization(authId, outcome);
    this.completions.notify(authId);
  }

  private async requireProvider(tenantId: string, providerId: string): Promise<OAuthProvider> {
    const provider = await this.repository.findProvider(tenantId, providerId);
    if (!provider) throw this.providerNotFound(providerId);
    return provider;
  }

  private providerNotFound(providerId: string): NotFoundError {
    return new NotFoundError(`OAuth provider ${providerId} not found`);
  }
}
