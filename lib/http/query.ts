import { appError } from "../errors.ts";

/** `expand`-style flags accept true/false/1/0; anything else is a client mistake. */
export function booleanParam(url: URL, name: string, fallback = false): boolean {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw appError("invalid_query", `${name} must be true, false, 1 or 0.`);
}

export function intParam(url: URL, name: string, min: number, max: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw appError("invalid_query", `${name} must be a whole number from ${min} to ${max}.`);
  }
  return n;
}
