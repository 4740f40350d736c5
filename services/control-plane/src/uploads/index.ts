export { UploadStore, uploadsDirOf } from "./store";
export { UploadService } from "./service";
export { uploadsRouter } from "./routes";
export { uploadSigningKey, signUpload, verifyUpload } from "./signing";
