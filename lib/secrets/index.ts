// Workspace secrets: encrypted values that HTTP columns send as {{secret:NAME}} (docs/secrets.md).
export {
  type SecretsKeyring,
  SECRETS_KEY_FILE,
  secretsKeyProblem,
  secretsKeyring,
} from "./key.ts";
export { createSecret, deleteSecret, listSecrets, readSecretValues, type SecretView } from "./store.ts";
export { redactSecrets } from "./redact.ts";
export {
  createSecretSchema,
  type CreateSecretInput,
  SECRET_MAX_BYTES,
  SECRET_NAME_PATTERN,
  secretNameSchema,
} from "./rules.ts";
