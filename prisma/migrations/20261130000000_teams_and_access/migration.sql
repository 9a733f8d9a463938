-- Teams and access: people with roles in workspaces, scoped API keys, and an append-only audit log.

-- A person. Email is stored lower-cased; a user signs in by password (Argon2id), by single
-- sign-on (issuer and subject), or both.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  password_hash TEXT,
  oidc_issuer TEXT,
  oidc_subject TEXT,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  UNIQUE (oidc_issuer, oidc_subject)
);

-- A user's role in a workspace: owner | admin | editor | viewer. Removing a member deletes the row.
CREATE TABLE memberships (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX memberships_user_id_idx ON memberships (user_id);

-- An invitation link: only the token's sha256 is stored, and it is used at most once.
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  email TEXT,
  invited_by TEXT NOT NULL,
  expires_at TIMESTAMPTZ(3) NOT NULL,
  used_at TIMESTAMPTZ(3),
  used_by_user_id TEXT,
  revoked_at TIMESTAMPTZ(3),
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX invitations_workspace_id_idx ON invitations (workspace_id);

-- A password reset link, printed by the CLI or an admin: hashed, once, short-lived.
CREATE TABLE password_resets (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at TIMESTAMPTZ(3) NOT NULL,
  used_at TIMESTAMPTZ(3),
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX password_resets_user_id_idx ON password_resets (user_id);

-- Scoped keys. Empty base_ids means every base. A key made before this migration (or by API_KEY,
-- or at workspace creation) has no creator and every scope: it acts as an owner.
ALTER TABLE api_keys ADD COLUMN scopes TEXT[] NOT NULL DEFAULT ARRAY['rows:read', 'rows:write', 'schema:write', 'runs:write', 'webhooks:manage', 'keys:manage', 'secrets:manage', 'audit:read']::TEXT[];
ALTER TABLE api_keys ADD COLUMN base_ids TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE api_keys ADD COLUMN expires_at TIMESTAMPTZ(3);
ALTER TABLE api_keys ADD COLUMN daily_credit_cap INTEGER;
ALTER TABLE api_keys ADD COLUMN created_by_user_id TEXT;
ALTER TABLE api_keys ADD COLUMN created_by_key_id TEXT;
CREATE INDEX api_keys_created_by_user_id_idx ON api_keys (created_by_user_id);

-- A session is made from a key (sign-in with a key) or for a user (password or single sign-on).
ALTER TABLE sessions ALTER COLUMN key_id DROP NOT NULL;
ALTER TABLE sessions ADD COLUMN user_id TEXT;
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- Who spent: a key's daily spend cap sums its debits of the day.
ALTER TABLE runs ADD COLUMN key_id TEXT;
ALTER TABLE credit_entries ADD COLUMN key_id TEXT;
CREATE INDEX credit_entries_key_id_created_at_idx ON credit_entries (key_id, created_at) WHERE key_id IS NOT NULL;

-- How long audit entries are kept, in days; NULL keeps them forever.
ALTER TABLE workspaces ADD COLUMN audit_retention_days INTEGER DEFAULT 365;

-- The audit log. Entries are only ever inserted: the trigger refuses every UPDATE, and only
-- retention (and deleting a workspace) removes them.
CREATE TABLE audit_entries (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  actor_type TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  target_type TEXT,
  target_id TEXT,
  base_id TEXT,
  summary JSONB,
  ip TEXT
);
CREATE INDEX audit_entries_workspace_id_at_idx ON audit_entries (workspace_id, at DESC, id DESC);

CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are append-only';
END;
$$;
CREATE TRIGGER audit_entries_no_update BEFORE UPDATE ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only();
