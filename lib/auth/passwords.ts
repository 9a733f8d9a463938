import { hash, verify } from "@node-rs/argon2";
import { appError } from "../errors.ts";

// Passwords are hashed with Argon2id (the library's default algorithm, with its default cost:
// 19 MiB, 2 passes, the OWASP minimum). A password must be at least 10 characters and not one
// of the commonest; longer rules (digits, symbols) push people to worse passwords.

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

// The commonest passwords of 10 characters or more in the public breach lists.
const COMMON = new Set([
  "1234567890",
  "0123456789",
  "12345678910",
  "123456789a",
  "1q2w3e4r5t",
  "1qaz2wsx3edc",
  "qwertyuiop",
  "qwerty1234",
  "qwerty123456",
  "password12",
  "password123",
  "password1234",
  "passw0rd123",
  "iloveyou12",
  "abcdefghij",
  "abcd123456",
  "a123456789",
  "aaaaaaaaaa",
  "0000000000",
  "1111111111",
  "9876543210",
  "letmein123",
  "welcome123",
  "administrator",
  "changeme123",
  "football123",
  "baseball123",
  "superman123",
  "qazwsxedcrfv",
  "asdfghjkl1",
  "zxcvbnm123",
  "cellwright",
  "cellwright1",
  "cellwright123",
]);

/** Refuses a password that is too short, too long or among the commonest (weak_password). */
export function assertStrongPassword(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    throw appError("weak_password", `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw appError("weak_password", `A password has at most ${MAX_PASSWORD_LENGTH} characters.`);
  if (COMMON.has(password.toLowerCase())) throw appError("weak_password", "This password is one of the commonest.");
}

export const hashPassword = (password: string): Promise<string> => hash(password);

// Verified when the email is unknown or has no password, so that the answer takes as long as a
// real check and does not tell which emails have accounts.
let dummy: Promise<string> | undefined;

/** Whether the password matches; a null hash (unknown user, or SSO only) still costs one verification. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    dummy ??= hash("not a password of anyone");
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
