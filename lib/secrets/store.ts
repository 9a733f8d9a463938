import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { newId } from "../ids.ts";
import { assertBelow, lockOwner, QUOTAS } from "../domain/limits.ts";
import type { SecretsKeyring } from "./key.ts";
import { seal, unseal } from "./cipher.ts";
import { type CreateSecretInput, last4Of, SECRET_NAME_PATTERN } from "./rules.ts";

// The only writer of workspace_secrets. Every statement names the workspace; what leaves this
// module is a name, a date and last4, except readSecretValues, which HTTP columns call to send.

export interface SecretView {
  name: string;
  createdAt: string;
  last4: string;
}

const view = (r: { name: string; createdAt: Date; last4: string }): SecretView => ({
  name: r.name,
  createdAt: r.createdAt.toISOString(),
  last4: r.last4,
});

const notFound = (name: string) => appError("secret_not_found", `No secret is named ${name} in this workspace.`);

/** The workspace's secrets, by name. */
export async function listSecrets(tx: Tx, workspaceId: string): Promise<SecretView[]> {
  const rows = await tx.workspaceSecret.findMany({
    where: { workspaceId },
    orderBy: { name: "asc" },
    select: { name: true, createdAt: true, last4: true },
  });
  return rows.map(view);
}

/**
 * Stores a secret. A name in use is 409 duplicate_secret unless `replace`: then the value (and
 * its date and creator) is replaced in place, which is how a secret is rotated.
 * Runs in the caller's transaction: the workspace row is locked so the cap holds under races.
 */
export async function createSecret(
  tx: Tx,
  keyring: SecretsKeyring,
  workspaceId: string,
  createdBy: string,
  input: CreateSecretInput,
): Promise<SecretView> {
  const ciphertext = seal(keyring.key(), workspaceId, input.name, input.value);
  const data = { ciphertext, last4: last4Of(input.value), createdBy, createdAt: new Date() };
  await lockOwner(tx, "workspaces", workspaceId);
  const existing = await tx.workspaceSecret.findUnique({
    where: { workspaceId_name: { workspaceId, name: input.name } },
    select: { id: true },
  });
  if (existing && !input.replace)
    throw appError(
      "duplicate_secret",
      `A secret named ${input.name} already exists; delete it or send replace: true.`,
      {
        name: input.name,
      },
    );
  if (existing) return view(await tx.workspaceSecret.update({ where: { id: existing.id }, data }));
  const count = await tx.workspaceSecret.count({ where: { workspaceId } });
  assertBelow(count, QUOTAS.secretsPerWorkspace, `A workspace has at most ${QUOTAS.secretsPerWorkspace} secrets`);
  return view(
    await tx.workspaceSecret.create({ data: { id: newId.secret(), workspaceId, name: input.name, ...data } }),
  );
}

/** Deletes a secret; what it was (never its value) is returned for the answer and the audit log. */
export async function deleteSecret(tx: Tx, workspaceId: string, name: string): Promise<SecretView> {
  if (!SECRET_NAME_PATTERN.test(name)) throw notFound(name);
  const row = await tx.workspaceSecret.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  // Counted rather than deleted by id: of two deletes at once, the second answers 404, never a 500.
  const { count } = row ? await tx.workspaceSecret.deleteMany({ where: { id: row.id } }) : { count: 0 };
  if (!row || count === 0) throw notFound(name);
  return view(row);
}

/**
 * The values of `names` in the workspace, decrypted, for a request about to be sent (HTTP
 * columns' {{secret:NAME}}). Any missing name fails the whole read with secret_not_found, naming
 * every missing one, so nothing is sent with a hole in it.
 */
export async function readSecretValues(
  tx: Tx,
  keyring: SecretsKeyring,
  workspaceId: string,
  names: Iterable<string>,
): Promise<Map<string, string>> {
  const wanted = [...new Set(names)];
  const out = new Map<string, string>();
  if (wanted.length === 0) return out;
  const rows = await tx.workspaceSecret.findMany({
    where: { workspaceId, name: { in: wanted } },
    select: { name: true, ciphertext: true },
  });
  const missing = wanted.filter((n) => !rows.some((r) => r.name === n)).sort();
  if (missing.length > 0)
    throw appError(
      "secret_not_found",
      `No secret${missing.length === 1 ? " is" : "s are"} named ${missing.join(", ")} in this workspace.`,
      { missing },
    );
  const key = keyring.key();
  for (const r of rows) out.set(r.name, unseal(key, workspaceId, r.name, r.ciphertext));
  return out;
}
