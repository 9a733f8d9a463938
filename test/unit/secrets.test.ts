import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig, parseSecretsKey } from "../../lib/config.ts";
import { seal, unseal } from "../../lib/secrets/cipher.ts";
import { keyFileOf, SECRETS_KEY_FILE, secretsKeyProblem, secretsKeyring } from "../../lib/secrets/key.ts";
import { redactSecrets } from "../../lib/secrets/redact.ts";
import { createSecretSchema, last4Of } from "../../lib/secrets/rules.ts";

const key = randomBytes(32);

describe("SECRETS_KEY", () => {
  it("accepts 32 bytes as 64 hex characters, base64 or base64url", () => {
    const raw = randomBytes(32);
    expect(parseSecretsKey(raw.toString("hex"), "K").equals(raw)).toBe(true);
    expect(parseSecretsKey(raw.toString("base64"), "K").equals(raw)).toBe(true);
    expect(parseSecretsKey(raw.toString("base64url"), "K").equals(raw)).toBe(true);
    expect(parseSecretsKey(` ${raw.toString("hex")}\n`, "K").equals(raw)).toBe(true);
  });

  it("refuses anything else in one line naming the variable, never the value", () => {
    for (const bad of ["short", randomBytes(16).toString("hex"), randomBytes(31).toString("base64"), "x".repeat(64)]) {
      expect(() => loadConfig({ SECRETS_KEY: bad })).toThrow(/^SECRETS_KEY must be 32 bytes as 64 hex characters/);
      try {
        loadConfig({ SECRETS_KEY: bad });
      } catch (e) {
        expect((e as Error).message).not.toContain(bad);
        expect((e as Error).message).not.toContain("\n");
      }
    }
  });

  it("is required on PostgreSQL only", () => {
    expect(secretsKeyProblem(loadConfig({ DATABASE_URL: "postgres://x/y" }))).toMatch(/^SECRETS_KEY is required/);
    expect(
      secretsKeyProblem(loadConfig({ DATABASE_URL: "postgres://x/y", SECRETS_KEY: key.toString("hex") })),
    ).toBeNull();
    expect(secretsKeyProblem(loadConfig({}))).toBeNull();
  });

  it("on a database one process owns, is made once in DATA_DIR (0600) and reused", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cw-secrets-"));
    try {
      const ring = secretsKeyring({ dataDir: dir, secretsKey: undefined }, true);
      const first = ring.key();
      expect(first.length).toBe(32);
      const file = path.join(dir, SECRETS_KEY_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(parseSecretsKey(readFileSync(file, "utf8"), "file").equals(first)).toBe(true);
      // Another process (another keyring) on the same directory reads the same key.
      expect(secretsKeyring({ dataDir: dir, secretsKey: undefined }, true).key().equals(first)).toBe(true);
      expect(keyFileOf(dir).equals(first)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("SECRETS_KEY wins over the file; a shared database without it refuses at use", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cw-secrets-"));
    try {
      expect(secretsKeyring({ dataDir: dir, secretsKey: key }, true).key()).toBe(key);
      const shared = secretsKeyring({ dataDir: dir, secretsKey: undefined }, false);
      expect(() => shared.key()).toThrow(expect.objectContaining({ code: "secrets_key_missing", status: 503 }));
      expect(() => statSync(path.join(dir, SECRETS_KEY_FILE))).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sealing", () => {
  it("round-trips, with a fresh IV each time", () => {
    const a = seal(key, "ws_1", "API_TOKEN", "s3cr3t-välue");
    const b = seal(key, "ws_1", "API_TOKEN", "s3cr3t-välue");
    expect(a).not.toBe(b);
    expect(a).not.toContain("s3cr3t");
    expect(a.split(".")).toHaveLength(4);
    expect(Buffer.from(a.split(".")[1], "base64")).toHaveLength(12);
    expect(unseal(key, "ws_1", "API_TOKEN", a)).toBe("s3cr3t-välue");
  });

  it("a ciphertext moved to another workspace or name, under another key, or altered, does not open", () => {
    const sealed = seal(key, "ws_1", "API_TOKEN", "value");
    const refused = expect.objectContaining({ code: "secret_unreadable" });
    expect(() => unseal(key, "ws_2", "API_TOKEN", sealed)).toThrow(refused);
    expect(() => unseal(key, "ws_1", "OTHER", sealed)).toThrow(refused);
    expect(() => unseal(randomBytes(32), "ws_1", "API_TOKEN", sealed)).toThrow(refused);
    const [v, iv, tag, body] = sealed.split(".");
    const flipped = Buffer.from(body, "base64");
    flipped[0] ^= 1;
    expect(() => unseal(key, "ws_1", "API_TOKEN", [v, iv, tag, flipped.toString("base64")].join("."))).toThrow(refused);
    // A truncated tag is refused too, not checked on fewer bytes.
    const shortTag = Buffer.from(tag, "base64").subarray(0, 4).toString("base64");
    expect(() => unseal(key, "ws_1", "API_TOKEN", [v, iv, shortTag, body].join("."))).toThrow(refused);
    expect(() => unseal(key, "ws_1", "API_TOKEN", "garbage")).toThrow(refused);
  });
});

describe("rules", () => {
  it("names follow ^[A-Z][A-Z0-9_]{0,63}$ and the error says so", () => {
    for (const name of ["A", "API_KEY", "X9_", `A${"B".repeat(63)}`])
      expect(createSecretSchema.safeParse({ name, value: "v" }).success, name).toBe(true);
    for (const name of ["", "api_key", "9A", "_A", "A-B", "A B", `A${"B".repeat(64)}`]) {
      const r = createSecretSchema.safeParse({ name, value: "v" });
      expect(r.success, name).toBe(false);
      expect(r.error?.issues[0].message).toMatch(/upper-case letter/);
    }
  });

  it("values are 1 byte to 8 KB, counted in UTF-8", () => {
    expect(createSecretSchema.safeParse({ name: "A", value: "x".repeat(8192) }).success).toBe(true);
    expect(createSecretSchema.safeParse({ name: "A", value: "x".repeat(8193) }).success).toBe(false);
    expect(createSecretSchema.safeParse({ name: "A", value: "é".repeat(4097) }).success).toBe(false);
    expect(createSecretSchema.safeParse({ name: "A", value: "" }).success).toBe(false);
  });

  it("last4 shows four characters of values of 8 or more, none of shorter ones", () => {
    expect(last4Of("sk_live_abcd1234")).toBe("1234");
    expect(last4Of("12345678")).toBe("5678");
    expect(last4Of("1234567")).toBe("");
    expect(last4Of("abcdefg😀")).toBe("efg😀");
  });
});

describe("redactSecrets", () => {
  it("replaces every occurrence of each value with its name", () => {
    const values = new Map([
      ["TOKEN", "abc123"],
      ["OTHER", "zz"],
    ]);
    expect(redactSecrets("a abc123 b abc123 zz", values)).toBe("a [secret:TOKEN] b [secret:TOKEN] [secret:OTHER]");
    expect(redactSecrets("nothing here", values)).toBe("nothing here");
  });

  it("replaces a value containing another whole, and skips empty values", () => {
    const values = new Map([
      ["SHORT", "key"],
      ["LONG", "key-and-more"],
      ["EMPTY", ""],
    ]);
    expect(redactSecrets("x key-and-more y key", values)).toBe("x [secret:LONG] y [secret:SHORT]");
  });

  it("treats values as text, not patterns", () => {
    expect(
      redactSecrets(
        "a.b a+b (x)",
        new Map([
          ["P", "a+b"],
          ["Q", "(x)"],
        ]),
      ),
    ).toBe("a.b [secret:P] [secret:Q]");
  });
});

describe("npm run worker", () => {
  // Both refusals come before the database is opened: the URL names nothing that listens.
  const worker = (env: Record<string, string>) => {
    const { SECRETS_KEY: _, ...rest } = process.env;
    return spawnSync(process.execPath, ["--import", "tsx", "lib/cli/worker.ts"], {
      env: { ...rest, DATABASE_URL: "postgres://127.0.0.1:9/none", ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
  };

  it("refuses to start on PostgreSQL without SECRETS_KEY, in one line", () => {
    const r = worker({});
    expect(r.status).toBe(64);
    expect(r.stderr.trim()).toMatch(/^error: SECRETS_KEY is required with DATABASE_URL: .*openssl rand -base64 32/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);

  it("refuses a SECRETS_KEY of the wrong form, in one line", () => {
    const r = worker({ SECRETS_KEY: "not-a-key" });
    expect(r.status).toBe(64);
    expect(r.stderr.trim()).toMatch(/^error: SECRETS_KEY must be 32 bytes/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);
});
