export { parseKeyHashes } from "./api-keys";
export { authenticateRequests, STUDIO_USER_CONTEXT } from "./authenticate";
export { allowAll, authorizerOf, type AuthEvent, type Authorization, type Authorize } from "./authorize";
export { apiKeyIdOf, authConfigurable, authOf, type AuthContext, type AuthFilters, type AuthUser } from "./context";
export { CustomAuth } from "./custom-auth";
export { filtersSql, matchesFilters } from "./filters";
