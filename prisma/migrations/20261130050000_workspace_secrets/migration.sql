-- Workspace secrets (lib/secrets/): values that HTTP columns send as {{secret:NAME}}. The value is
-- stored only as AES-256-GCM ciphertext ("v1.<iv>.<tag>.<ciphertext>", base64 parts) whose
-- additional data binds it to this workspace and name, so it cannot be moved to another row.
-- last4 is the value's last four characters, shown so people can tell two values apart.
CREATE TABLE workspace_secrets (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  last4 TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX workspace_secrets_workspace_id_name_key ON workspace_secrets (workspace_id, name);
