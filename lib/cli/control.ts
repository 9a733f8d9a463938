import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { Config } from "../config.ts";
import { createSignInLink, signInUrl } from "../auth/sign-in-link.ts";
import { isAppError } from "../errors.ts";

// The embedded database admits one process, so while `npm start` runs, `npm run cli --
// sign-in-link` cannot open DATA_DIR: it asks the running server instead. The server writes a
// random secret, its port and host to a file in DATA_DIR that only its user can read, and answers
// one request on this socket that carries the secret: whoever may read the file may read the
// database anyway. With PostgreSQL there is no such file; the CLI writes through the database.

export const CONTROL_FILE = "cellwright.control.json";
const CONTROL_PATH = "/_cellwright/sign-in-link";
const RESET_PATH = "/_cellwright/password-reset-link";

interface ControlInfo {
  port: number;
  host: string;
  secret: string;
}

const controlFile = (dataDir: string) => path.join(dataDir, CONTROL_FILE);

/** Writes the control file and returns the request handler (true when it answered), or null on PostgreSQL. */
export function startControl(config: Config): ((req: IncomingMessage, res: ServerResponse) => boolean) | null {
  if (config.databaseUrl) return null;
  const info: ControlInfo = { port: config.port, host: config.host, secret: randomBytes(32).toString("base64url") };
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(controlFile(config.dataDir), JSON.stringify(info), { mode: 0o600 });
  const expected = Buffer.from(info.secret);
  return (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== CONTROL_PATH && path !== RESET_PATH) return false;
    const sent = Buffer.from(String(req.headers["x-cellwright-control"] ?? ""));
    const local =
      req.socket.remoteAddress === req.socket.localAddress ||
      /^(127\.|::1$|::ffff:127\.)/.test(req.socket.remoteAddress ?? "");
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || !local || sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      reply(404, { error: { code: "not_found", message: "No such endpoint." } });
      return true;
    }
    const search = new URL(req.url ?? "/", "http://control").searchParams;
    const workspace = search.get("workspace") ?? undefined;
    req.resume();
    // The runtime module (and with it the database client) loads here, not with the edge: the
    // server's own copy, built into the app, is the one that runs.
    import("../runtime.ts")
      .then(({ getRuntime }) => getRuntime())
      .then(async (rt) => {
        if (path !== RESET_PATH) return createSignInLink(rt.db.prisma, rt.config, workspace);
        // Loaded on use too: it brings the password hasher, which the edge never needs.
        const { passwordResetForEmail } = await import("../auth/people.ts");
        return passwordResetForEmail(rt, search.get("email") ?? "", linkOriginOf(rt.config));
      })
      .then((link) => reply(200, { url: link.url, expiresAt: link.expiresAt.toISOString() }))
      .catch((e) =>
        reply(isAppError(e) ? e.status : 500, {
          error: isAppError(e) ? e.toJSON() : { code: "internal_error", message: "Something went wrong on our side." },
        }),
      );
    return true;
  };
}

/** Asks the server running on DATA_DIR for a sign-in link (see startControl). */
export function signInLinkFromServer(config: Config, workspace?: string): Promise<{ url: string; expiresAt: string }> {
  return linkFromServer(config, CONTROL_PATH, workspace ? `?workspace=${encodeURIComponent(workspace)}` : "");
}

/** Asks the server running on DATA_DIR for a password reset link (see startControl). */
export function passwordResetLinkFromServer(
  config: Config,
  email: string,
): Promise<{ url: string; expiresAt: string }> {
  return linkFromServer(config, RESET_PATH, `?email=${encodeURIComponent(email)}`);
}

/** The origin of links the CLI prints: PUBLIC_URL, else the address a browser on this machine reaches. */
export const linkOriginOf = (config: Pick<Config, "publicUrl" | "host" | "port">) =>
  config.publicUrl ?? new URL(signInUrl(config, "x")).origin;

async function linkFromServer(
  config: Config,
  path: string,
  query: string,
): Promise<{ url: string; expiresAt: string }> {
  let info: ControlInfo;
  try {
    info = JSON.parse(readFileSync(controlFile(config.dataDir), "utf8")) as ControlInfo;
  } catch {
    throw new Error(
      `DATA_DIR is in use by another process that is not a Cellwright server started with npm start; stop it and try again.`,
    );
  }
  const host = ["0.0.0.0", "::", ""].includes(info.host) ? "127.0.0.1" : info.host;
  let res: Response;
  try {
    res = await fetch(`http://${host.includes(":") ? `[${host}]` : host}:${info.port}${path}${query}`, {
      method: "POST",
      headers: { "x-cellwright-control": info.secret },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new Error(`The server that holds DATA_DIR does not answer on port ${info.port}; is it still starting?`);
  }
  const body = (await res.json().catch(() => null)) as {
    url?: string;
    expiresAt?: string;
    error?: { message?: string };
  } | null;
  if (!res.ok || !body?.url || !body.expiresAt)
    throw new Error(body?.error?.message ?? `The server answered ${res.status}.`);
  return { url: body.url, expiresAt: body.expiresAt };
}
