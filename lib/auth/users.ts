import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { newId } from "../ids.ts";

// The owner of the users table. A user is a person; emails are kept lower-cased and trimmed so
// that "Ada@Example.com" and "ada@example.com" are one account.

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export interface UserView {
  id: string;
  email: string;
  name: string;
}

export interface UserRow extends UserView {
  passwordHash: string | null;
}

export async function findUserByEmail(tx: Tx, email: string): Promise<UserRow | null> {
  return tx.user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
}

export async function findUser(tx: Tx, id: string): Promise<UserView | null> {
  return tx.user.findUnique({ where: { id }, select: { id: true, email: true, name: true } });
}

/** A new user with a password hash made by the caller (hashing is slow: never inside a transaction). */
export async function createUser(
  tx: Tx,
  input: { email: string; name?: string; passwordHash: string | null },
): Promise<UserView> {
  const email = normalizeEmail(input.email);
  // A concurrent sign-up with the same email loses on the unique index; the count keeps the usual case tidy.
  if ((await tx.user.count({ where: { email } })) > 0) throw appError("duplicate_email");
  return tx.user.create({
    data: { id: newId.user(), email, name: (input.name ?? "").trim(), passwordHash: input.passwordHash },
    select: { id: true, email: true, name: true },
  });
}

export async function setPasswordHash(tx: Tx, userId: string, passwordHash: string): Promise<void> {
  await tx.user.update({ where: { id: userId }, data: { passwordHash } });
}
