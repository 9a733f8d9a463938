import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { appError } from "../errors.ts";

// AES-256-GCM, a fresh 12-byte IV per value. The additional data names the workspace and the
// secret, so a ciphertext copied into another row (another workspace, another name) fails its tag.

const VERSION = "v1";
const IV_BYTES = 12;
// A shorter tag would be accepted by GCM unless the length is pinned, and is easier to forge.
const TAG_BYTES = 16;

const aadOf = (workspaceId: string, name: string) =>
  Buffer.from(`cellwright.secret.${VERSION}\0${workspaceId}\0${name}`);

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64. */
export function seal(key: Buffer, workspaceId: string, name: string, value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aadOf(workspaceId, name));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(".");
}

/** The value, or secret_unreadable when the key, the row or the text is not the one it was sealed with. */
export function unseal(key: Buffer, workspaceId: string, name: string, sealed: string): string {
  const [version, iv, tag, body, ...rest] = sealed.split(".");
  try {
    if (version !== VERSION || rest.length > 0 || !iv || !tag || body === undefined) throw new Error("format");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aadOf(workspaceId, name));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw appError(
      "secret_unreadable",
      `The secret ${name} does not decrypt with this server's key: delete it and create it again.`,
      { name },
    );
  }
}
