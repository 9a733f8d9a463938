import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type Config, parseSecretsKey } from "../config.ts";
import { appError } from "../errors.ts";

// The key that encrypts workspace secrets. SECRETS_KEY wins. Without it, a database one process
// owns (the embedded one) keeps a generated key in DATA_DIR beside its data, so it moves and is
// backed up with them; a shared PostgreSQL has no such place every process sees, so it needs
// SECRETS_KEY (start and worker refuse without it: secretsKeyProblem).

export const SECRETS_KEY_FILE = "secrets.key";

export interface SecretsKeyring {
  /** The 32-byte key; read or made on first use, then kept. Throws secrets_key_missing. */
  key(): Buffer;
}

/** Why this process may not start, or null: a shared PostgreSQL without SECRETS_KEY. */
export function secretsKeyProblem(config: Pick<Config, "databaseUrl" | "secretsKey">): string | null {
  if (!config.databaseUrl || config.secretsKey) return null;
  return "SECRETS_KEY is required with DATABASE_URL: set it to 32 random bytes, e.g. `openssl rand -base64 32`, the same in every process (docs/secrets.md)";
}

export function secretsKeyring(config: Pick<Config, "dataDir" | "secretsKey">, exclusive: boolean): SecretsKeyring {
  let key: Buffer | undefined = config.secretsKey;
  return {
    key() {
      if (key) return key;
      if (!exclusive) throw appError("secrets_key_missing");
      key = keyFileOf(config.dataDir);
      return key;
    },
  };
}

/** Reads DATA_DIR/secrets.key, or makes it (0600) when there is none. */
export function keyFileOf(dataDir: string): Buffer {
  const file = path.join(dataDir, SECRETS_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": only one writer ever makes it, and an existing key is never overwritten.
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString("base64")}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if ((e as { code?: string }).code !== "EEXIST") throw e;
  }
  return parseSecretsKey(readFileSync(file, "utf8"), file);
}
