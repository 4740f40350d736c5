import type { Logger, OutboundFetch } from "@lgp/server-kit";
import type { SecretCipher } from "../secrets/cipher";
import type { OAuthProvider, OAuthRepository, TokenWithProvider } from "./repository";
import { refreshTokens, TokenExchangeError, type ProviderEndpoint, type TokenSet } from "./token-exchange";

/** A token this close to its expiry counts as expired: it would not survive the caller's request. */
const EXPIRY_MARGIN_MS = 30_000;

export interface FreshToken {
  row: TokenWithProvider;
  accessToken: string;
  /** False when the token expired and could not be refreshed. */
  usable: boolean;
}

/** The provider as the token endpoint needs it, with the client secret decrypted. */
export function providerEndpoint(
  cipher: SecretCipher,
  provider: OAuthProvider,
  allowHttpLoopback: boolean,
  outbound?: OutboundFetch,
): ProviderEndpoint {
  return {
    clientId: provider.clientId,
    clientSecret: provider.clientSecretEncrypted ? cipher.decrypt(provider.clientSecretEncrypted) : null,
    authUrl: provider.authUrl,
    tokenUrl: provider.tokenUrl,
    issuer: provider.issuer,
    tokenEndpointAuthMethod: provider.tokenEndpointAuthMethod,
    allowHttpLoopback,
    outbound,
  };
}

/**
 * Reads tokens for their owners: decrypts them, and refreshes an expired one with its refresh
 * token first. One refresh per token at a time in this process; across processes the update is
 * guarded by `updated_at`, and the loser re-reads the winner's token.
 */
export class TokenVault {
  private readonly inFlight = new Map<string, Promise<FreshToken>>();

  constructor(
    private readonly repository: OAuthRepository,
    private readonly cipher: SecretCipher,
    private readonly logger: Logger,
    private readonly allowHttpLoopback: boolean,
    private readonly outbound?: OutboundFetch,
  ) {}

  encrypt(tokens: TokenSet): { accessTokenEncrypted: string; refreshTokenEncrypted: string | null } {
    return {
      accessTokenEncrypted: this.cipher.encrypt(tokens.accessToken),
      refreshTokenEncrypted: tokens.refreshToken ? this.cipher.encrypt(tokens.refreshToken) : null,
    };
  }

  isExpired(row: { expiresAt: Date | null }, now = Date.now()): boolean {
    return row.expiresAt !== null && row.expiresAt.getTime() - EXPIRY_MARGIN_MS <= now;
  }

  async read(row: TokenWithProvider): Promise<FreshToken> {
    if (!this.isExpired(row)) return { row, accessToken: this.cipher.decrypt(row.accessTokenEncrypted), usable: true };
    if (!row.refreshTokenEncrypted)
      return { row, accessToken: this.cipher.decrypt(row.accessTokenEncrypted), usable: false };
    let pending = this.inFlight.get(row.id);
    if (!pending) {
      pending = this.refresh(row).finally(() => this.inFlight.delete(row.id));
      this.inFlight.set(row.id, pending);
    }
    return pending;
  }

  private async refresh(row: TokenWithProvider): Promise<FreshToken> {
    const stale = { row, accessToken: this.cipher.decrypt(row.accessTokenEncrypted), usable: false };
    let tokens: TokenSet;
    try {
      tokens = await refreshTokens(
        providerEndpoint(this.cipher, row.provider, this.allowHttpLoopback, this.outbound),
        this.cipher.decrypt(row.refreshTokenEncrypted as string),
      );
    } catch (error) {
      const reason = error instanceof TokenExchangeError ? error.error : "refresh_failed";
      this.logger.warn(
        { token_id: row.id, provider_id: row.provider.providerId, reason },
        "OAuth token refresh failed",
      );
      return this.reread(row, stale);
    }
    const encrypted = this.encrypt(tokens);
    const data = {
      accessTokenEncrypted: encrypted.accessTokenEncrypted,
      // Providers that do not rotate refresh tokens answer without one: keep the old.
      refreshTokenEncrypted: encrypted.refreshTokenEncrypted ?? row.refreshTokenEncrypted,
      expiresAt: tokens.expiresAt,
      tokenType: tokens.tokenType,
    };
    if (!(await this.repository.updateRefreshedToken(row.id, row.updatedAt, data))) return this.reread(row, stale);
    const updated = await this.repository.findToken(row.tenantId, row.id);
    return { row: updated ?? { ...row, ...data }, accessToken: tokens.accessToken, usable: true };
  }

  /** After a lost race or a failed refresh: another process may hold a fresh token now. */
  private async reread(row: TokenWithProvider, stale: FreshToken): Promise<FreshToken> {
    const current = await this.repository.findToken(row.tenantId, row.id);
    if (current && current.updatedAt.getTime() !== row.updatedAt.getTime() && !this.isExpired(current)) {
      return { row: current, accessToken: this.cipher.decrypt(current.accessTokenEncrypted), usable: true };
    }
    return stale;
  }
}
