import type { Logger } from "@lgp/server-kit";
import type { Db } from "../db";
import type { Deployer } from "../deployers/deployer";
import type { RevisionRepository } from "../revisions/repository";
import type { SecretCipher } from "../secrets/cipher";

/** What the reconciler's parts share: storage, the deployer, the secrets cipher and the logger. */
export interface ReconcilerContext {
  db: Db;
  deployer: Deployer;
  revisions: RevisionRepository;
  cipher: SecretCipher;
  logger: Logger;
}
