import type { Db } from "../db";
import type { OAuthAuthorization, OAuthProvider, OAuthToken, Prisma } from "../generated/prisma/client";

export type { OAuthAuthorization, OAuthProvider, OAuthToken };
export type AuthorizationWithProvider = OAuthAuthorization & { provider: OAuthProvider };
export type TokenWithProvider = OAuthToken & { provider: OAuthProvider };

/** Every query names the tenant: another tenant's rows are simply not found. */
export class OAuthRepository {
  constructor(private readonly db: Db) {}

  // Providers

  listProviders(tenantId: string): Promise<OAuthProvider[]> {
    return this.db.oAuthProvider.findMany({ where: { tenantId }, orderBy: { createdAt: "asc" } });
  }

  findProvider(tenantId: string, providerId: string): Promise<OAuthProvider | null> {
    return this.db.oAuthProvider.findUnique({ where: { tenantId_providerId: { tenantId, providerId } } });
  }

  createProvider(data: Prisma.OAuthProviderUncheckedCreateInput): Promise<OAuthProvider> {
    return this.db.oAuthProvider.create({ data });
  }

  updateProvider(id: string, data: Prisma.OAuthProviderUncheckedUpdateInput): Promise<OAuthProvider> {
    return this.db.oAuthProvider.update({ where: { id }, data });
  }

  async deleteProvider(tenantId: string, providerId: string): Promise<boolean> {
    const { count } = await this.db.oAuthProvider.deleteMany({ where: { tenantId, providerId } });
    return count > 0;
  }

  // Authorizations

  createAuthorization(data: Prisma.OAuthAuthorizationUncheckedCreateInput): Promise<OAuthAuthorization> {
    return this.db.oAuthAuthorization.create({ data });
  }

  /** Looked up by the hash of `state` alone: the callback carries no tenant. */
  findAuthorizationByStateHash(stateHash: string): Promise<AuthorizationWithProvider | null> {
    return this.db.oAuthAuthorization.findUnique({ where: { stateHash }, include: { provider: true } });
  }

  findAuthorization(tenantId: string, id: string): Promise<OAuthAuthorization | null> {
    return this.db.oAuthAuthorization.findFirst({ where: { id, tenantId } });
  }

  /**
   * Marks `state` used, atomically: of two callbacks racing with one state only one gets `true`.
   * An expired state cannot be claimed.
   */
  async claimState(id: string, now: Date): Promise<boolean> {
    const { count } = await this.db.oAuthAuthorization.updateMany({
      where: { id, stateUsedAt: null, expiresAt: { gt: now } },
      data: { stateUsedAt: now },
    });
    return count === 1;
  }

  async finishAuthorization(
    id: string,
    outcome: { status: "completed"; tokenId: string } | { status: "failed"; error: string; errorDescription: string },
  ): Promise<void> {
    await this.db.oAuthAuthorization.update({
      where: { id },
      data:
        outcome.status === "completed"
          ? { status: "completed", tokenId: outcome.tokenId, codeVerifierEncrypted: null }
          : {
              status: "failed",
              error: outcome.error,
              errorDescription: outcome.errorDescription,
              codeVerifierEncrypted: null,
            },
    });
  }

  /** Forgets a tenant's authorizations older than `before` (they can no longer be waited on usefully). */
  async pruneAuthorizations(tenantId: string, before: Date): Promise<void> {
    await this.db.oAuthAuthorization.deleteMany({ where: { tenantId, createdAt: { lt: before } } });
  }

  // Tokens

  /** Tokens of one provider for one user (`null`: the tenant's own), newest first. */
  findUserTokens(tenantId: string, providerId: string, userId: string | null): Promise<TokenWithProvider[]> {
    return this.db.oAuthToken.findMany({
      where: { tenantId, providerId, userId },
      include: { provider: true },
      orderBy: { createdAt: "desc" },
    });
  }

  listTokens(tenantId: string, filter: { providerId?: string; userId?: string }): Promise<TokenWithProvider[]> {
    return this.db.oAuthToken.findMany({
      where: { tenantId, providerId: filter.providerId, userId: filter.userId },
      include: { provider: true },
      orderBy: { createdAt: "desc" },
    });
  }

  findToken(tenantId: string, id: string): Promise<TokenWithProvider | null> {
    return this.db.oAuthToken.findFirst({ where: { id, tenantId }, include: { provider: true } });
  }

  /**
   * Stores a new token and drops the ones it supersedes (same tenant, provider and user, scopes
   * included in the new token's), in one transaction.
   */
  async storeToken(data: Prisma.OAuthTokenUncheckedCreateInput & { scopes: string[] }): Promise<OAuthToken> {
    return this.db.$transaction(async (tx) => {
      const token = await tx.oAuthToken.create({ data });
      const others = await tx.oAuthToken.findMany({
        where: {
          tenantId: data.tenantId,
          providerId: data.providerId,
          userId: data.userId ?? null,
          id: { not: token.id },
        },
        select: { id: true, scopes: true },
      });
      const granted = new Set(data.scopes);
      const superseded = others
        .filter((other) => other.scopes.every((scope) => granted.has(scope)))
        .map((other) => other.id);
      if (superseded.length) await tx.oAuthToken.deleteMany({ where: { id: { in: superseded } } });
      return token;
    });
  }

  /**
   * Replaces a token's secrets after a refresh, only if nobody refreshed it meanwhile
   * (`updatedAt` unchanged); `false` means another refresh won.
   */
  async updateRefreshedToken(
    id: string,
    expectedUpdatedAt: Date,
    data: {
      accessTokenEncrypted: string;
      refreshTokenEncrypted: string | null;
      expiresAt: Date | null;
      tokenType: string;
    },
  ): Promise<boolean> {
    const { count } = await this.db.oAuthToken.updateMany({ where: { id, updatedAt: expectedUpdatedAt }, data });
    return count === 1;
  }

  async deleteTokens(tenantId: string, filter: { providerId: string; userId?: string }): Promise<number> {
    const { count } = await this.db.oAuthToken.deleteMany({ where: { tenantId, ...filter } });
    return count;
  }

  async deleteToken(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.db.oAuthToken.deleteMany({ where: { id, tenantId } });
    return count > 0;
  }
}
