-- Model calls per attempt: AI_MAX_CALLS_PER_CELL caps their sum over one cell generation.
ALTER TABLE cell_runs ADD COLUMN model_calls INTEGER NOT NULL DEFAULT 0;

-- The API's per-key token buckets when processes share a PostgreSQL (API_RATE_LIMIT, API_RATE_BURST).
-- `granted` and `available` are what the last take got and found, returned by the same statement.
CREATE TABLE api_rate_buckets (
  key_id TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  granted INTEGER NOT NULL DEFAULT 0,
  available DOUBLE PRECISION NOT NULL DEFAULT 0,
  updated_at TIMESTAMPTZ(6) NOT NULL DEFAULT now()
);

-- One-time sign-in links (first start, `npm run cli -- sign-in-link`): only the token's sha256 is
-- stored; a link is used at most once and expires after 15 minutes.
CREATE TABLE sign_in_tokens (
  token_hash TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  expires_at TIMESTAMPTZ(3) NOT NULL,
  used_at TIMESTAMPTZ(3),
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_tokens_expires_at_idx ON sign_in_tokens (expires_at);
