export { RegistryService, REGISTRY_JWT_TTL_SECONDS } from "./service";
export { registryRouter } from "./routes";
export { credentialKey, credentialKeys, signCredential, verifyCredential } from "./credentials";
export { tokenSigningKey, libtrustKeyId } from "./jwt";
export { registrySettingsOf, splitRegistryUrl, type RegistrySettings } from "./settings";
export { imagePullAccess, type ImagePullAccess, type PullCredential } from "./pull";
