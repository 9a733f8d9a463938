import { asText, fail, ok, type ColumnType } from "./types.ts";

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const email = {
  name: "email",
  label: "Email",
  normalize(value) {
    const text = asText(value)?.trim();
    if (!text || text.length > 254 || !EMAIL.test(text)) return fail("Expected an email address.");
    const at = text.lastIndexOf("@");
    return ok(`${text.slice(0, at)}@${text.slice(at + 1).toLowerCase()}`);
  },
  aiValueHint: () => "One email address (name@domain) and nothing else.",
  grid: { align: "left", editor: "text" },
} satisfies ColumnType;
