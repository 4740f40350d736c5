import type { ControlPlane } from "@lgp/contracts";
import { UnauthorizedError } from "@lgp/server-kit";
import type { TenantRepository, TenantRow } from "./repository";

type Tenant = ControlPlane.components["schemas"]["Tenant"];

export function presentTenant(row: TenantRow): Tenant {
  return { id: row.id, name: row.name, created_at: row.createdAt.toISOString() };
}

/** The tenant a request's API key belongs to. */
export class TenantService {
  constructor(private readonly tenants: TenantRepository) {}

  async get(tenantId: string): Promise<Tenant> {
    const row = await this.tenants.find(tenantId);
    // Deleting a tenant deletes its keys: one gone since the key was checked is a key gone too.
    if (!row) throw new UnauthorizedError("Invalid API key");
    return presentTenant(row);
  }
}
