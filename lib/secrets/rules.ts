import { z } from "zod";

// The shape of a workspace secret, shared by the store, the endpoint schemas and the web app.

/** Upper-case, so a {{secret:NAME}} placeholder stands out in a request template. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
export const SECRET_NAME_RULE = "an upper-case letter, then up to 63 upper-case letters, digits or underscores";
/** The largest value, in UTF-8 bytes: API tokens and keys, not documents. */
export const SECRET_MAX_BYTES = 8 * 1024;
/** Values shorter than this show no last characters: four of six would give most of it away. */
export const SECRET_LAST4_MIN_LENGTH = 8;

export const secretNameSchema = z
  .string()
  .regex(SECRET_NAME_PATTERN, `A secret's name is ${SECRET_NAME_RULE} (e.g. CLEARBIT_KEY).`)
  .describe(`The secret's name: ${SECRET_NAME_RULE}. Unique in the workspace.`);

// The messages never quote the value: a refused value must not reach an answer or a log.
export const secretValueSchema = z
  .string()
  .min(1, "A secret's value cannot be empty.")
  .max(SECRET_MAX_BYTES, `A secret's value is at most ${SECRET_MAX_BYTES} bytes.`)
  .refine((v) => Buffer.byteLength(v, "utf8") <= SECRET_MAX_BYTES, {
    message: `A secret's value is at most ${SECRET_MAX_BYTES} bytes.`,
  })
  .describe(`The value, 1 to ${SECRET_MAX_BYTES} bytes. It is stored encrypted and never returned.`);

export const createSecretSchema = z
  .object({
    name: secretNameSchema,
    value: secretValueSchema,
    replace: z
      .boolean()
      .default(false)
      .describe("true replaces the value of an existing secret of this name (a rotation); default false: 409."),
  })
  .strict();
export type CreateSecretInput = z.output<typeof createSecretSchema>;

/** The last characters shown for a value, or "" when it is too short to show any. */
export function last4Of(value: string): string {
  const chars = Array.from(value);
  return chars.length < SECRET_LAST4_MIN_LENGTH ? "" : chars.slice(-4).join("");
}
