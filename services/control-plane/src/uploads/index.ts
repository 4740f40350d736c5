export { UploadStore, uploadStoreOf, uploadsDirOf } from "./store";
export { DiskStorage, S3Storage, type UploadStorage } from "./storage";
export { UploadService } from "./service";
export { uploadsRouter } from "./routes";
export { uploadSigningKey, uploadSigningKeys, signUpload, verifyUpload } from "./signing";
