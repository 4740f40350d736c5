export { TenantRepository } from "./repository";
export { TenantService, presentTenant } from "./service";
export { tenantsRouter } from "./routes";
