// Generated from packages/contracts/openapi/control-plane/*.yaml by `npm run generate`. Do not edit.
export type paths = {
  "/auth/done": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The default frontend callback page (when FRONTEND_CALLBACK_URL is not set). */
    get: operations["oauthDonePage"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/registry/token": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The Docker registry token endpoint (the registry's auth.token.realm)
     * @description Docker's token authentication: Basic credentials whose password is a push token or a pull credential (the kubernetes deployer's) answer a JWT, valid 300 s, granting the requested scopes on that deployment's repositories only, while the deployment exists. Needs no API key: the credential is the authority.
     */
    get: operations["issueRegistryToken"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/projects/{project_id}/deploy_logs": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The deployment id. */
        project_id: components["parameters"]["ProjectId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Read a deployment's deploy log, all its revisions together */
    post: operations["queryDeploymentDeployLogs"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/projects/{project_id}/revisions/{revision_id}/build_logs": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The deployment id. */
        project_id: components["parameters"]["ProjectId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Read a revision's build log */
    post: operations["queryBuildLogs"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/projects/{project_id}/revisions/{revision_id}/deploy_logs": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The deployment id. */
        project_id: components["parameters"]["ProjectId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Read a revision's deploy log */
    post: operations["queryDeployLogs"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/auth/authenticate": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Answer a stored token, or start an authorization-code flow.
     * @description With a valid stored token for the same provider, user and scopes (refreshed if it expired), answers `completed` with it unless `force_new`. Otherwise answers `pending` with the `url` to send the user to and the `auth_id` to wait on.
     */
    post: operations["authenticate"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/auth/callback/{provider_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The provider's redirect after the user's decision.
     * @description Validates `state` (single-use, bound to one authorization of one tenant and provider, valid 10 minutes), exchanges `code` at the provider's token URL, stores the token, and redirects (303) the browser to the frontend callback page with `status`, `provider_id`, `auth_id` and, on failure, `error` and `error_description`. A provider `error` is relayed the same way. Other parameters providers add (for example `iss`) are accepted.
     */
    get: operations["oauthCallback"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/auth/providers": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the tenant's OAuth providers. */
    get: operations["listOAuthProviders"];
    put?: never;
    /** Register an OAuth provider. */
    post: operations["createOAuthProvider"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/auth/providers/{provider_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider_id: components["parameters"]["OAuthProviderIdPath"];
      };
      cookie?: never;
    };
    /** Read one OAuth provider. */
    get: operations["getOAuthProvider"];
    put?: never;
    post?: never;
    /** Delete an OAuth provider with its pending authorizations and tokens. */
    delete: operations["deleteOAuthProvider"];
    options?: never;
    head?: never;
    /** Update an OAuth provider (the provider_id cannot change). */
    patch: operations["updateOAuthProvider"];
    trace?: never;
  };
  "/v2/auth/tokens": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List tokens (expired ones are refreshed first when they have a refresh token). */
    get: operations["listOAuthTokens"];
    put?: never;
    post?: never;
    /** Delete every token of a provider (optionally only one user's). */
    delete: operations["deleteOAuthTokens"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/auth/tokens/{token_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete one token. */
    delete: operations["deleteOAuthToken"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/auth/wait/{auth_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Long-poll until an authorization completes, fails or the timeout passes. */
    get: operations["waitForAuthCompletion"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List deployments, newest first
     * @description Answers `{resources, offset}`. `offset` is what to pass in the next request for the next page: it is a continuation position (values of 1000000000000 and above are positions in the listing order), so paging is stable while deployments are created concurrently. Small offsets (below 1000000000000) skip that many deployments.
     */
    get: operations["listDeployments"];
    put?: never;
    /** Create a deployment (and its first revision) */
    post: operations["createDeployment"];
    /**
     * Delete several deployments
     * @description Deletes up to 100 deployments. 200 when every one was deleted; 207 with a result per id otherwise.
     */
    delete: operations["deleteDeployments"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments/{deployment_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    /** Read a deployment */
    get: operations["getDeployment"];
    put?: never;
    post?: never;
    /**
     * Delete a deployment
     * @description The deployment becomes `AWAITING_DELETE` while its workloads are stopped and its database dropped, after which it is gone (404).
     */
    delete: operations["deleteDeployment"];
    options?: never;
    head?: never;
    /**
     * Update a deployment
     * @description A new revision is created when any of these is given: `source_revision_config.repo_ref`, the config path, `image_uri`, `source_tarball_path`, `secrets`, `source_config.resource_spec` (which replaces the whole resource spec). `build_on_push`, `install_command`, `build_command` and `custom_url` change without a new revision. `name`, `source`, `integration_id`, `repo_url`, `deployment_type`, `listener_id` and `listener_config.k8s_namespace` cannot change. A secret sent back with the masked value keeps its stored value.
     */
    patch: operations["updateDeployment"];
    trace?: never;
  };
  "/v2/deployments/{deployment_id}/api-key": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the API key of a deployment's agent runtime
     * @description Mints a new key (answered this once as `api_key`; only its hash is kept) and, for a deployment this control plane runs, redeploys its latest configuration as a new revision that accepts only the new key. The old key keeps working until that revision is DEPLOYED, then stops. An external_docker runtime is not run here: configure the new key's hash there.
     */
    post: operations["rotateDeploymentApiKey"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments/{deployment_id}/push-token": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A registry token to push a deployment's image (langgraph deploy)
     * @description For `internal_docker` deployments only (400 for any other source, with the message the official CLI looks for). The token is the password (any user name; the CLI uses `oauth2accesstoken`) for pushing and pulling repositories under `registry_url`, and nowhere else; it expires after REGISTRY_PUSH_TOKEN_TTL_SECONDS. 501 when no registry is configured (REGISTRY_URL).
     */
    post: operations["requestPushToken"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments/{deployment_id}/revisions": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    /**
     * List a deployment's revisions, newest first
     * @description Clients take `resources[0]` as the latest revision. `offset` pages as in the deployments list.
     */
    get: operations["listRevisions"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments/{deployment_id}/revisions/{revision_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    /** Read a revision (poll until its status is DEPLOYED) */
    get: operations["getRevision"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments/{deployment_id}/revisions/{revision_id}/logs/{log_type}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
        revision_id: components["parameters"]["RevisionId"];
        log_type: "build" | "deploy";
      };
      cookie?: never;
    };
    /** Read a revision's build or deploy log */
    get: operations["readRevisionLogs"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments/{deployment_id}/revisions/{revision_id}/redeploy": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Redeploy a revision (roll back to it)
     * @description Creates a new revision with that revision's configuration (source revision config, resource spec and secrets), which becomes the deployment's latest.
     */
    post: operations["redeployRevision"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/deployments/{deployment_id}/upload-url": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A URL to upload a source tarball to (internal_source deployments)
     * @description A signed URL (HMAC, valid UPLOAD_URL_TTL_SECONDS, usable once) and the object path to name in `PATCH /v2/deployments/{id}` as `source_revision_config.source_tarball_path`. 400 for a deployment whose source is not internal_source.
     */
    post: operations["requestUploadUrl"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/listeners": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List listeners, newest first
     * @description Answers `{resources, offset}`. `offset` is what to pass in the next request for the next page, as for deployments: values of 1000000000000 and above are positions in the listing order; smaller offsets skip that many listeners.
     */
    get: operations["listListeners"];
    put?: never;
    /**
     * Create a listener
     * @description A listener names a Kubernetes cluster of the tenant (`compute_id`, unique per tenant) and the namespaces in it that deployments may be placed in (`compute_config.k8s_namespaces`). A deployment is placed on one with `source_config.listener_id` and `source_config.listener_config.k8s_namespace` (one of the listener's namespaces), both fixed at creation; the kubernetes deployer runs it in that namespace. No agent runs in the cluster itself: the control plane's kubernetes deployer applies the workloads, in the cluster its kubeconfig reaches, and `compute_id` is the tenant's name for that cluster.
     */
    post: operations["createListener"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/listeners/{listener_id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        listener_id: components["parameters"]["ListenerId"];
      };
      cookie?: never;
    };
    /** Read a listener */
    get: operations["getListener"];
    put?: never;
    post?: never;
    /**
     * Delete a listener
     * @description Refused (409) while deployments are placed on it, including ones still being deleted: delete them first.
     */
    delete: operations["deleteListener"];
    options?: never;
    head?: never;
    /**
     * Update a listener's version or namespaces
     * @description `compute_config.k8s_namespaces` replaces the whole list; a namespace a deployment is placed in cannot be left out (409). `compute_type` and `compute_id` cannot change (accepted only when unchanged).
     */
    patch: operations["updateListener"];
    trace?: never;
  };
  "/v2/local-runtime": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The local agent runtime, with its key
     * @description The deployment the control plane registered for the agent runtime it was started beside (LOCAL_RUNTIME_URL and LOCAL_RUNTIME_API_KEY, set by `npm start`), its URL and its API key, held in the control plane's memory only. Answered to the bootstrap tenant; 404 to any other tenant and when no local runtime is configured. Not part of the hosted API.
     */
    get: operations["getLocalRuntime"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/tenant": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The API key's tenant
     * @description Answers the tenant the X-Api-Key resolves to; every other resource is scoped by it.
     */
    get: operations["getTenant"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v2/uploads/{token}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signed part of an upload URL. */
        token: string;
      };
      cookie?: never;
    };
    get?: never;
    /**
     * Upload a source tarball (or zip) to a URL from upload-url
     * @description The body is the gzip tarball, streamed to disk (never held in memory), or a zip archive, unpacked and kept as the gzip tarball of its contents (at most 10 times UPLOAD_MAX_BYTES unpacked; no ZIP64, encryption or methods but stored and deflated). Refused: an invalid or expired URL (403), a used one (409), more than UPLOAD_MAX_BYTES (413), neither gzip nor zip (415), an archive with links, special files or paths outside its root, or damaged (422). Needs no API key: the URL is the credential.
     */
    put: operations["uploadSourceTarball"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
};
export type webhooks = Record<string, never>;
export type components = {
  schemas: {
    ValidationErrorItem: {
      loc: (string | number)[];
      msg: string;
      type: string;
    };
    ValidationError: {
      detail: components["schemas"]["ValidationErrorItem"][];
    };
    ErrorDetail: {
      detail: string;
    };
    OAuthProviderSlug: string;
    /** @enum {string} */
    OAuthTokenEndpointAuthMethod: "client_secret_post" | "client_secret_basic" | "none";
    OAuthProvider: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      tenant_id: string;
      provider_id: components["schemas"]["OAuthProviderSlug"];
      name: string;
      client_id: string;
      auth_url: string;
      token_url: string;
      /** @description Expected `iss` of authorization responses and ID tokens (default the origin of auth_url). */
      issuer: string | null;
      uses_pkce: boolean;
      /** @enum {string} */
      code_challenge_method: "S256";
      token_endpoint_auth_method: components["schemas"]["OAuthTokenEndpointAuthMethod"];
      /** @description Whether a client secret is stored (the secret itself is never returned). */
      has_client_secret: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    OAuthProviderCreate: {
      provider_id: components["schemas"]["OAuthProviderSlug"];
      name: string;
      client_id: string;
      client_secret?: string | null;
      auth_url: string;
      token_url: string;
      issuer?: string | null;
      /** @default false */
      uses_pkce: boolean;
      /**
       * @default S256
       * @enum {string}
       */
      code_challenge_method: "S256";
      token_endpoint_auth_method?: components["schemas"]["OAuthTokenEndpointAuthMethod"];
    };
    OAuthProviderUpdate: {
      name?: string;
      client_id?: string;
      client_secret?: string | null;
      auth_url?: string;
      token_url?: string;
      issuer?: string | null;
      uses_pkce?: boolean;
      /** @enum {string} */
      code_challenge_method?: "S256";
      token_endpoint_auth_method?: components["schemas"]["OAuthTokenEndpointAuthMethod"];
    };
    OAuthMessage: {
      message: string;
    };
    AuthenticateRequest: {
      provider: components["schemas"]["OAuthProviderSlug"];
      scopes: string[];
      user_id?: string | null;
      /** @default false */
      force_new: boolean;
    };
    AuthenticateResponse: {
      /** @enum {string} */
      status: "completed" | "pending";
      url?: string | null;
      auth_id?: string | null;
      /** @description The access token, when completed. */
      token?: string | null;
    };
    AuthWaitResponse: {
      /** @enum {string} */
      status: "completed" | "pending" | "timeout" | "not_found" | "failed";
      token?: string | null;
      error?: string | null;
      error_description?: string | null;
    };
    OAuthToken: {
      /** Format: uuid */
      id: string;
      provider_id: components["schemas"]["OAuthProviderSlug"];
      user_id: string | null;
      scopes: string[];
      token_type: string;
      access_token: string;
      /** Format: date-time */
      expires_at: string | null;
      has_refresh_token: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    OAuthTokensDeleted: {
      message: string;
      provider_id: string;
      deleted: number;
    };
    /** @description Comma separated UUIDs. */
    CommaSeparatedUuids: string;
    /**
     * @description Source kind. Cannot change after creation.
     * @enum {string}
     */
    DeploymentSource: "github" | "external_docker" | "internal_docker" | "internal_source";
    /** @enum {string} */
    DeploymentStatus: "AWAITING_DATABASE" | "READY" | "UNUSED" | "AWAITING_DELETE" | "UNKNOWN";
    /**
     * @description `dev_zero` is the hosted product's scale-to-zero type (what `langgraph deploy` creates by default); deployers here run it as `dev` (always on).
     * @enum {string}
     */
    DeploymentType: "dev_free" | "dev" | "dev_zero" | "prod";
    /** @enum {string} */
    RevisionStatus:
      | "CREATING"
      | "QUEUED"
      | "AWAITING_BUILD"
      | "BUILDING"
      | "AWAITING_DEPLOY"
      | "DEPLOYING"
      | "CREATE_FAILED"
      | "BUILD_FAILED"
      | "DEPLOY_FAILED"
      | "DEPLOYED"
      | "SKIPPED"
      | "INTERRUPTED"
      | "UNKNOWN";
    /** @description Lowercase letters, digits and `-`; unique per tenant. Cannot change after creation. */
    DeploymentName: string;
    Secret: {
      /** @description Environment variable name. */
      name: string;
      /** @description Plain value on input; masked on output. Sending the mask back keeps the stored value. */
      value: string;
    };
    SecretReference: {
      name: string;
      secret_name: string;
      secret_key: string;
    };
    ListenerConfig: {
      k8s_namespace?: string | null;
    } | null;
    SourceConfig: {
      /** Format: uuid */
      integration_id?: string | null;
      repo_url?: string | null;
      /**
       * @description Cannot change after creation. `dev_zero` (scale to zero, the hosted default of `langgraph deploy`) runs as `dev` here.
       * @enum {string|null}
       */
      deployment_type?: "dev_free" | "dev" | "dev_zero" | "prod" | null;
      build_on_push?: boolean | null;
      /** @description Only settable for `external_docker`; for other sources the deployer reports the URL the active revision serves at. */
      custom_url?: string | null;
      resource_spec?: components["schemas"]["ResourceSpec"];
      /**
       * Format: uuid
       * @description The listener (GET /v2/listeners) the deployment is placed on, one of its tenant's; `listener_config.k8s_namespace` must then name one of its namespaces. Cannot change after creation.
       */
      listener_id?: string | null;
      listener_config?: components["schemas"]["ListenerConfig"];
      install_command?: string | null;
      build_command?: string | null;
    };
    /** @description `langgraph_config_path` and `graph_config_path` name the same value (both accepted, both returned). `repo_commit_sha` is read-only (ignored on input). */
    SourceRevisionConfig: {
      repo_ref?: string | null;
      langgraph_config_path?: string | null;
      graph_config_path?: string | null;
      image_uri?: string | null;
      source_tarball_path?: string | null;
      repo_commit_sha?: string | null;
    };
    StringMap: {
      [key: string]: string;
    };
    VolumeMount: {
      name: string;
      mountPath: string;
      subPath?: string;
      mountPropagation?: string;
      subPathExpr?: string;
      readOnly?: boolean;
    };
    Volume: {
      name: string;
      configMap?: Record<string, never>;
      secret?: Record<string, never>;
      emptyDir?: Record<string, never>;
      persistentVolumeClaim?: Record<string, never>;
      nfs?: Record<string, never>;
      projected?: Record<string, never>;
      downwardAPI?: Record<string, never>;
      csi?: Record<string, never>;
    };
    ContainerEnvVar: {
      name: string;
      value?: string;
      valueFrom?: Record<string, never>;
    };
    Container: {
      name: string;
      image?: string;
      imagePullPolicy?: string;
      workingDir?: string;
      restartPolicy?: string;
      command?: string[];
      args?: string[];
      env?: components["schemas"]["ContainerEnvVar"][];
      envFrom?: Record<string, never>[];
      resources?: {
        limits?: Record<string, never>;
        requests?: Record<string, never>;
      };
      volumeMounts?: components["schemas"]["VolumeMount"][];
      securityContext?: Record<string, never>;
    };
    /** @description Scale, CPU and memory of the deployment's workloads. CPU in cores (fractions allowed), `_mb` in megabytes, `db_storage_gi` in gibibytes. Limits default to twice the request; queue sizing defaults to the main values. A limit below its request is refused. */
    ResourceSpec: {
      min_scale?: number | null;
      max_scale?: number | null;
      queue_min_scale?: number | null;
      queue_max_scale?: number | null;
      orchestrator_min_scale?: number | null;
      orchestrator_max_scale?: number | null;
      cpu?: number | null;
      cpu_limit?: number | null;
      queue_cpu?: number | null;
      queue_cpu_limit?: number | null;
      redis_cpu?: number | null;
      redis_cpu_limit?: number | null;
      orchestrator_cpu?: number | null;
      orchestrator_cpu_limit?: number | null;
      executor_cpu?: number | null;
      executor_cpu_limit?: number | null;
      db_cpu?: number | null;
      db_cpu_limit?: number | null;
      memory_mb?: number | null;
      memory_limit_mb?: number | null;
      queue_memory_mb?: number | null;
      queue_memory_limit_mb?: number | null;
      redis_memory_mb?: number | null;
      redis_memory_limit_mb?: number | null;
      orchestrator_memory_mb?: number | null;
      orchestrator_memory_limit_mb?: number | null;
      executor_memory_mb?: number | null;
      executor_memory_limit_mb?: number | null;
      db_memory_mb?: number | null;
      db_memory_limit_mb?: number | null;
      db_storage_gi?: number | null;
      db_max_connections?: number | null;
      labels?: components["schemas"]["StringMap"];
      annotations?: components["schemas"]["StringMap"];
      service_account_name?: string | null;
      image_pull_secrets?: {
        name: string;
      }[];
      volumes?: components["schemas"]["Volume"][];
      volume_mounts?: components["schemas"]["VolumeMount"][];
      init_containers?: components["schemas"]["Container"][];
      sidecars?: components["schemas"]["Container"][];
    } | null;
    DeploymentCreate: {
      name: components["schemas"]["DeploymentName"];
      source: components["schemas"]["DeploymentSource"];
      source_config: components["schemas"]["SourceConfig"];
      source_revision_config: components["schemas"]["SourceRevisionConfig"];
      /** @description None when absent (the official CLI sends them only when it has some). */
      secrets?: components["schemas"]["Secret"][];
      secret_references?: components["schemas"]["SecretReference"][];
      image_version?: string | null;
      tag_value_ids?: string[];
    };
    /** @description Every field is optional. `name` and `source` are accepted only when unchanged. */
    DeploymentPatch: {
      name?: string;
      source?: string;
      source_config?: components["schemas"]["SourceConfig"];
      source_revision_config?: components["schemas"]["SourceRevisionConfig"];
      secrets?: components["schemas"]["Secret"][];
      secret_references?: components["schemas"]["SecretReference"][];
      image_version?: string | null;
      tag_value_ids?: string[];
      /**
       * @description The source of the revision this PATCH starts, as the official CLI names it; it must be the deployment's own source.
       * @enum {string}
       */
      revision_source?: "github" | "external_docker" | "internal_docker" | "internal_source";
      /** @description Packages the official CLI asks the hosted service to watch for updates. Accepted and not used: this control plane rebuilds only when asked. */
      tracked_packages?: string[];
    };
    Deployment: {
      /** Format: uuid */
      id: string;
      /**
       * Format: uuid
       * @description Owner of the deployment.
       */
      tenant_id: string;
      name: string;
      source: components["schemas"]["DeploymentSource"];
      source_config: components["schemas"]["SourceConfig"];
      /** @description The values of the latest revision. */
      source_revision_config: components["schemas"]["SourceRevisionConfig"];
      /** @description Values are masked. */
      secrets: components["schemas"]["Secret"][];
      secret_references?: components["schemas"]["SecretReference"][];
      image_version?: string | null;
      tag_value_ids?: string[];
      status: components["schemas"]["DeploymentStatus"];
      /** Format: uuid */
      latest_revision_id: string | null;
      /**
       * Format: uuid
       * @description The currently deployed revision.
       */
      active_revision_id: string | null;
      /** @description The first characters of the agent runtime's API key, to tell keys apart (the key itself is shown once, at creation or rotation). null for a deployment made before keys existed. */
      api_key_prefix?: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    DeploymentWithKey: components["schemas"]["Deployment"] & {
      /** @description The agent runtime's API key (send it as `x-api-key`). Shown once: only its hash is stored, and it reaches the runtime as that hash. */
      api_key: string;
    };
    DeploymentList: {
      resources: components["schemas"]["Deployment"][];
      /** @description Pass it in the next request to get the next page. */
      offset: number;
    };
    BulkDeleteResult: {
      results: {
        /** Format: uuid */
        deployment_id: string;
        /** @description HTTP status of this deletion (204 deleted, 404 not found). */
        status: number;
        detail: string | null;
      }[];
    };
    /** @description A status a revision entered, and when. */
    RevisionStatusChange: {
      status: components["schemas"]["RevisionStatus"];
      /** Format: date-time */
      at: string;
      /** @description The status message set with this status (why it failed, was skipped or was interrupted), if any. */
      message: string | null;
    };
    Revision: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      deployment_id: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      status: components["schemas"]["RevisionStatus"];
      /** @description Why the revision failed, was skipped or was interrupted. */
      status_message?: string | null;
      /** @description The statuses the revision went through, oldest first: its creation status at `created_at`, then one entry per status change, the last one being `status`. A revision made before the history was kept shows its creation and, if it moved since, its current status at `updated_at`. */
      readonly status_history: components["schemas"]["RevisionStatusChange"][];
      source: components["schemas"]["DeploymentSource"];
      /** @description The revision's own values. */
      source_revision_config: components["schemas"]["SourceRevisionConfig"];
      resource_spec?: components["schemas"]["ResourceSpec"];
      /** @description Where this revision serves the agent runtime API once deployed. */
      url?: string | null;
    };
    /**
     * @description The kind of compute the listener names; only Kubernetes. Cannot change after creation.
     * @enum {string}
     */
    ListenerComputeType: "k8s";
    ListenerComputeConfig: {
      /** @description The namespaces deployments may be placed in: Kubernetes namespace names (DNS-1123 labels: lowercase letters, digits and `-`, at most 63), each once. */
      k8s_namespaces: string[];
    };
    ListenerCreate: {
      compute_type: components["schemas"]["ListenerComputeType"];
      /** @description The tenant's name for the cluster (unique per tenant). Cannot change after creation. */
      compute_id: string;
      compute_config: components["schemas"]["ListenerComputeConfig"];
      /** @description A version label of the listener, kept as given. */
      version?: string | null;
    };
    /** @description Every field is optional. `compute_type` and `compute_id` are accepted only when unchanged. */
    ListenerPatch: {
      compute_type?: string;
      compute_id?: string;
      compute_config?: components["schemas"]["ListenerComputeConfig"];
      version?: string | null;
    };
    Listener: {
      /** Format: uuid */
      id: string;
      compute_type: components["schemas"]["ListenerComputeType"];
      compute_id: string;
      compute_config: components["schemas"]["ListenerComputeConfig"];
      version: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    ListenerList: {
      resources: components["schemas"]["Listener"][];
      /** @description Pass it in the next request to get the next page. */
      offset: number;
    };
    LocalRuntime: {
      /** Format: uuid */
      deployment_id: string;
      /** @description The runtime's URL (the deployment's custom_url). */
      url: string;
      /** @description The runtime's API key (X-Api-Key). */
      api_key: string;
    };
    /**
     * @description Lines at this level or more severe.
     * @enum {string}
     */
    LogLevel: "debug" | "info" | "warn" | "error";
    /** @description Lines at this level or more severe: debug, info, warn (or warning), error (or critical: the most severe level kept is error), in any case (the official CLI sends DEBUG, INFO, WARNING, ERROR, CRITICAL). */
    LogLevelFilter: string;
    CliLogLine: {
      /** @description The line's id, the same in every answer (`langgraph deploy logs --follow` shows each line once by it). */
      id: string;
      message: string;
      /** @enum {string} */
      level: "DEBUG" | "INFO" | "WARNING" | "ERROR";
      /** Format: date-time */
      timestamp: string;
      /** @description A runtime log line's structured fields (the run's ids, an error), when it has them. */
      fields?: {
        [key: string]: unknown;
      } | null;
    };
    CliLogPage: {
      logs: components["schemas"]["CliLogLine"][];
      /** @description Pass it as `offset` for the next page; null when there is no more. */
      next_offset: number | null;
    };
    /**
     * @default asc
     * @enum {string}
     */
    LogOrder: "asc" | "desc";
    LogQuery: {
      /** @default 100 */
      limit: number;
      order?: components["schemas"]["LogOrder"];
      /** @default 0 */
      offset: number;
      level?: components["schemas"]["LogLevelFilter"] | null;
      /** @description Only lines containing this text (case-insensitive). */
      query?: string | null;
      /** Format: date-time */
      start_time?: string | null;
      /** Format: date-time */
      end_time?: string | null;
    };
    LogLine: {
      /** @description The line's id, the same in every answer. */
      id: string;
      message: string;
      level: components["schemas"]["LogLevel"];
      /** Format: date-time */
      timestamp: string;
      /** @description A runtime log line's structured fields (the run's ids, an error), when it has them. */
      fields?: {
        [key: string]: unknown;
      } | null;
    };
    LogPage: {
      logs: components["schemas"]["LogLine"][];
      /** @description Pass it as `offset` for the next page; null when there is no more. */
      next_offset: number | null;
    };
    /** @description Comma separated revision statuses. */
    CommaSeparatedRevisionStatuses: string;
    RevisionList: {
      resources: components["schemas"]["Revision"][];
      /** @description Pass it in the next request to get the next page. */
      offset: number;
    };
    Tenant: {
      /** Format: uuid */
      id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
    };
  };
  responses: {
    /** @description The request does not match the contract. */
    ValidationError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ValidationError"];
      };
    };
    /** @description Missing or unknown API key. */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The resource does not exist for this tenant. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The request cannot apply to this resource. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description This control plane does not offer the feature (it says which, and what to do instead). */
    NotImplemented: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The request conflicts with the current state. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The database is unreachable for a moment (a connection was cut or refused); nothing was done. Retry after the `Retry-After` seconds. */
    Unavailable: {
      headers: {
        "Retry-After"?: number;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description X-Tenant-Id names another tenant than the API key's. */
    TenantMismatch: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The request with this Idempotency-Key is still being answered after the repeat waited 30 s for it; retry after `Retry-After` seconds. */
    IdempotencyKeyInProgress: {
      headers: {
        "Retry-After"?: string;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description Over a budget per minute: the caller's requests (or its runs or deploys), or the client address's requests that failed authentication (then every request of that address is refused until its window ends). Nothing was done; retry after `Retry-After` seconds. */
    TooManyRequests: {
      headers: {
        /** @description Seconds until the budget's window ends. */
        "Retry-After"?: number;
        /** @description The budget (draft-ietf-httpapi-ratelimit-headers), e.g. `"requests";q=600;w=60`: its name, requests per window and the window in seconds. */
        "RateLimit-Policy"?: string;
        /** @description What is left of it, e.g. `"requests";r=0;t=37`: the requests left and the seconds until the window ends. Absent when a single request asks more than a whole window allows. */
        RateLimit?: string;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The upload is refused; `detail` says why. */
    UploadRefused: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
  };
  parameters: {
    OAuthProviderIdPath: components["schemas"]["OAuthProviderSlug"];
    DeploymentId: string;
    RevisionId: string;
    /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). The same key on another request is a 422 naming this header. Keys are kept per tenant; a failed first request (any status but 2xx) frees its key. A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
    IdempotencyKey: string;
    ListenerId: string;
    /** @description The deployment id. */
    ProjectId: string;
  };
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
  oauthDonePage: {
    parameters: {
      query?: {
        status?: string;
        provider_id?: string;
        auth_id?: string;
        error?: string;
        error_description?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page telling the person whether the connection succeeded. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  issueRegistryToken: {
    parameters: {
      query?: {
        service?: string;
        /** @description `repository:<name>:<actions>`, repeated for several. */
        scope?: string[];
        account?: string;
        client_id?: string;
        offline_token?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The registry token. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            token: string;
            access_token: string;
            expires_in: number;
            /** Format: date-time */
            issued_at: string;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  queryDeploymentDeployLogs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The deployment id. */
        project_id: components["parameters"]["ProjectId"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["LogQuery"];
      };
    };
    responses: {
      /** @description A page of log lines, levels in upper case as the CLI prints them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["CliLogPage"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  queryBuildLogs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The deployment id. */
        project_id: components["parameters"]["ProjectId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["LogQuery"];
      };
    };
    responses: {
      /** @description A page of log lines, levels in upper case as the CLI prints them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["CliLogPage"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  queryDeployLogs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The deployment id. */
        project_id: components["parameters"]["ProjectId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": components["schemas"]["LogQuery"];
      };
    };
    responses: {
      /** @description A page of log lines, levels in upper case as the CLI prints them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["CliLogPage"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  authenticate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AuthenticateRequest"];
      };
    };
    responses: {
      /** @description A token, or the authorization to complete. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AuthenticateResponse"];
        };
      };
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  oauthCallback: {
    parameters: {
      query?: {
        code?: string;
        state?: string;
        error?: string;
        error_description?: string;
        iss?: string;
      };
      header?: never;
      path: {
        provider_id: components["parameters"]["OAuthProviderIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Redirect to the frontend callback page. */
      303: {
        headers: {
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  listOAuthProviders: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The providers, oldest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OAuthProvider"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  createOAuthProvider: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). The same key on another request is a 422 naming this header. Keys are kept per tenant; a failed first request (any status but 2xx) frees its key. A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["OAuthProviderCreate"];
      };
    };
    responses: {
      /** @description The provider (without its client secret). */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OAuthProvider"];
        };
      };
      401: components["responses"]["Unauthorized"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getOAuthProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider_id: components["parameters"]["OAuthProviderIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The provider. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OAuthProvider"];
        };
      };
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteOAuthProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider_id: components["parameters"]["OAuthProviderIdPath"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OAuthMessage"];
        };
      };
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  updateOAuthProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider_id: components["parameters"]["OAuthProviderIdPath"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["OAuthProviderUpdate"];
      };
    };
    responses: {
      /** @description The updated provider. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OAuthProvider"];
        };
      };
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  listOAuthTokens: {
    parameters: {
      query?: {
        provider_id?: string;
        user_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tokens, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OAuthToken"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteOAuthTokens: {
    parameters: {
      query: {
        provider_id: string;
        user_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description How many tokens were deleted. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["OAuthTokensDeleted"];
        };
      };
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteOAuthToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  waitForAuthCompletion: {
    parameters: {
      query?: {
        /** @description Seconds to wait (default 30); values above 60 wait 60. */
        timeout?: number;
      };
      header?: never;
      path: {
        auth_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The authorization's status. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AuthWaitResponse"];
        };
      };
      401: components["responses"]["Unauthorized"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  listDeployments: {
    parameters: {
      query?: {
        /** @description Maximum number of resources to return. */
        limit?: number;
        /** @description Pagination offset (pass the `offset` of the previous answer). */
        offset?: number;
        /** @description Deployment name to filter by (the whole name; `langgraph deploy` looks a deployment up by it). */
        name?: string;
        /** @description Deployment name to filter by (substring, case-insensitive). Empty matches every name (`langgraph deploy list` sends it empty when given no filter). */
        name_contains?: string;
        /** @description Deployment status to filter by. */
        status?: components["schemas"]["DeploymentStatus"];
        /** @description Only deployments reconciled by a remote listener (true) or not (false). */
        remote_reconciled?: boolean;
        /** @description Comma separated tag value ids; a deployment matches when it has any of them. */
        tag_value_ids?: components["schemas"]["CommaSeparatedUuids"];
        /** @description Image version to filter by. */
        image_version?: string;
        /** @description Deployment type to filter by. */
        deployment_type?: components["schemas"]["DeploymentType"];
        /** @description Comma separated deployment ids. */
        deployment_ids?: components["schemas"]["CommaSeparatedUuids"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of deployments. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["DeploymentList"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  createDeployment: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). The same key on another request is a 422 naming this header. Keys are kept per tenant; a failed first request (any status but 2xx) frees its key. A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["DeploymentCreate"];
      };
    };
    responses: {
      /** @description The new deployment; `latest_revision_id` names its first revision, or is null for a deployment that awaits its upload or image (`internal_source` with neither `repo_url` nor `source_tarball_path`, `internal_docker` without `image_uri`, as `langgraph deploy` creates them): the PATCH that names it starts the first revision. `api_key` is the key of its agent runtime, shown this once (only its hash is kept). */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["DeploymentWithKey"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteDeployments: {
    parameters: {
      query: {
        /** @description Comma separated deployment ids (at most 100). */
        deployment_ids: components["schemas"]["CommaSeparatedUuids"];
        /** @description Accepted for compatibility; this platform creates no tracing projects. */
        delete_tracing_project?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every deployment was deleted. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["BulkDeleteResult"];
        };
      };
      /** @description Some deployments could not be deleted; see each result. */
      207: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["BulkDeleteResult"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getDeployment: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deployment. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Deployment"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteDeployment: {
    parameters: {
      query?: {
        /** @description Accepted for compatibility; this platform creates no tracing projects. */
        delete_tracing_project?: boolean;
      };
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deletion accepted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  updateDeployment: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). The same key on another request is a 422 naming this header. Keys are kept per tenant; a failed first request (any status but 2xx) frees its key. A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["DeploymentPatch"];
      };
    };
    responses: {
      /** @description The updated deployment. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Deployment"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  rotateDeploymentApiKey: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). The same key on another request is a 422 naming this header. Keys are kept per tenant; a failed first request (any status but 2xx) frees its key. A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deployment with its new key; `latest_revision_id` names the revision that applies it. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["DeploymentWithKey"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  requestPushToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The push token and where to push. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            token: string;
            /** @description The deployment's repository prefix, `<registry>/deployments/<deployment_id>`; push `<registry_url>/<name>:<tag>`. */
            registry_url: string;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
      501: components["responses"]["NotImplemented"];
      503: components["responses"]["Unavailable"];
    };
  };
  listRevisions: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        /** @description Comma separated revision statuses. */
        status?: components["schemas"]["CommaSeparatedRevisionStatuses"];
        /** @description Accepted for compatibility; revisions are reconciled by this control plane. */
        remote_reconciled?: boolean;
      };
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of revisions. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RevisionList"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getRevision: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The revision. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Revision"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  readRevisionLogs: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        order?: components["schemas"]["LogOrder"];
        level?: components["schemas"]["LogLevelFilter"];
        /** @description Only lines containing this text (case-insensitive). */
        query?: string;
        start_time?: string;
        end_time?: string;
      };
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
        revision_id: components["parameters"]["RevisionId"];
        log_type: "build" | "deploy";
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of log lines. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["LogPage"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  redeployRevision: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). The same key on another request is a 422 naming this header. Keys are kept per tenant; a failed first request (any status but 2xx) frees its key. A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
        revision_id: components["parameters"]["RevisionId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deployment, whose `latest_revision_id` names the new revision. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Deployment"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  requestUploadUrl: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deployment_id: components["parameters"]["DeploymentId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The upload URL and object path. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            upload_url: string;
            object_path: string;
            /** @description The largest upload accepted (UPLOAD_MAX_BYTES), for clients to check before sending. */
            max_bytes?: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  listListeners: {
    parameters: {
      query?: {
        /** @description Maximum number of resources to return. */
        limit?: number;
        /** @description Pagination offset (pass the `offset` of the previous answer, or a number of listeners to skip). */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of listeners. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ListenerList"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  createListener: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this create safe to repeat (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). A repeat with the same key and the same request (method, path, query and body) within IDEMPOTENCY_KEY_TTL_SECONDS (24 h unless set) does not do the work again: it is answered the first answer (status and body), marked `Idempotent-Replayed: true`, and waits for it while the first request is in flight (up to 30 s, then a 409 with `Retry-After`). The same key on another request is a 422 naming this header. Keys are kept per tenant; a failed first request (any status but 2xx) frees its key. A bare string or a structured-field string (`"..."`) of 1 to 255 printable ASCII characters. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ListenerCreate"];
      };
    };
    responses: {
      /** @description The new listener. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Listener"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getListener: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        listener_id: components["parameters"]["ListenerId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The listener. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Listener"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteListener: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        listener_id: components["parameters"]["ListenerId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The listener is deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  updateListener: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        listener_id: components["parameters"]["ListenerId"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ListenerPatch"];
      };
    };
    responses: {
      /** @description The updated listener. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Listener"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getLocalRuntime: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The local runtime. */
      200: {
        headers: {
          /** @description no-store (the answer holds a key). */
          "Cache-Control"?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["LocalRuntime"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getTenant: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tenant. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Tenant"];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["TenantMismatch"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  uploadSourceTarball: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signed part of an upload URL. */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/gzip": string;
        "application/zip": string;
        "application/octet-stream": string;
      };
    };
    responses: {
      /** @description Stored. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            object_path: string;
            bytes: number;
          };
        };
      };
      403: components["responses"]["UploadRefused"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["UploadRefused"];
      415: components["responses"]["UploadRefused"];
      422: components["responses"]["ValidationError"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
}
