-- API-key changes announced (issue 39): each control plane caches what a key resolves to, and
-- forgets it when it hears the key's hash on channel `api_key_changes`. The trigger announces every
-- change, whoever makes it (the API, `npm run tenants`, an operator's SQL, a tenant's deletion,
-- whose keys go with it), and PostgreSQL delivers it to every listening replica when the change
-- commits, never before. A creation is announced too: a key tried before it existed works at once.
-- `*` (a TRUNCATE) means every key. Only additions: release N-1 runs unchanged beside it.
CREATE FUNCTION "api_key_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('api_key_changes', '*');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('api_key_changes', OLD."key_hash");
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('api_key_changes', NEW."key_hash");
  END IF;
  RETURN NULL;
END
$$;

-- Only what a cached answer holds: last_used_at and the like change nothing and announce nothing.
CREATE TRIGGER "api_keys_changed"
AFTER INSERT OR DELETE OR UPDATE OF "key_hash", "tenant_id" ON "api_keys"
FOR EACH ROW EXECUTE FUNCTION "api_key_changed"();

CREATE TRIGGER "api_keys_truncated"
AFTER TRUNCATE ON "api_keys"
FOR EACH STATEMENT EXECUTE FUNCTION "api_key_changed"();
