import type { Db } from "../db";
import type { Tenant as TenantRow } from "../generated/prisma/client";

export type { TenantRow };

/** Tenant rows. Knows nothing of HTTP. */
export class TenantRepository {
  constructor(private readonly db: Db) {}

  find(id: string): Promise<TenantRow | null> {
    return this.db.tenant.findUnique({ where: { id } });
  }
}
