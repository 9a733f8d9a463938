import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type ClientMetadata } from "oidc-provider";

// A real OpenID Connect provider (oidc-provider) on 127.0.0.1, for single sign-on suites. Its
// interaction signs in `login` (an account of `accounts`) without a form, and consent is implied.
// `tamper` rewrites the ID token of the next token response, re-signed with the provider's own
// key, as a provider gone wrong (or an attacker holding a token for another client) would send it.

export interface IdpAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestIdp {
  issuer: string;
  accounts: Map<string, IdpAccount>;
  /** The sub the next interaction signs in. */
  login: string;
  tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | null;
  /** Starts the provider with these clients (the listening address must be known first). */
  start(clients: ClientMetadata[]): void;
  close(): Promise<void>;
}

const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");

export async function startTestIdp(): Promise<TestIdp> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "test-key", alg: "RS256", use: "sig" };
  const signingKey = createPrivateKey({ key: jwk, format: "jwk" });
  let provider: Provider | undefined;
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idp: TestIdp = {
    issuer,
    accounts: new Map(),
    login: "",
    tamper: null,
    start(clients) {
      provider = new Provider(issuer, {
        clients,
        jwks: { keys: [jwk as never] },
        ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        findAccount: (_ctx, sub) => {
          const account = idp.accounts.get(sub);
          return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
        },
        // Consent is implied: a first-party client, as the operator's own provider would treat it.
        async loadExistingGrant(ctx) {
          const { oidc } = ctx;
          const grantId = oidc.result?.consent?.grantId || oidc.session!.grantIdFor(oidc.client!.clientId);
          if (grantId) return oidc.provider.Grant.find(grantId);
          const grant = new oidc.provider.Grant({
            clientId: oidc.client!.clientId,
            accountId: oidc.session!.accountId,
          });
          grant.addOIDCScope("openid email profile");
          await grant.save();
          return grant;
        },
      });
      const callback = provider.callback();
      handle = (req, res) => {
        if (req.url?.startsWith("/interaction/")) return void finishInteraction(req, res);
        if (req.method === "POST" && req.url === "/token" && idp.tamper) rewriteIdToken(res, idp.tamper);
        callback(req, res);
      };
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };

  async function finishInteraction(req: IncomingMessage, res: ServerResponse) {
    try {
      await provider!.interactionDetails(req, res);
      await provider!.interactionFinished(
        req,
        res,
        { login: { accountId: idp.login } },
        { mergeWithLastSubmission: false },
      );
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  }

  /** Replaces the id_token of the JSON the provider is about to send. */
  function rewriteIdToken(res: ServerResponse, change: (claims: Record<string, unknown>) => Record<string, unknown>) {
    const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if ((typeof chunk === "string" || Buffer.isBuffer(chunk)) && res.statusCode === 200) {
        const body = JSON.parse(chunk.toString()) as { id_token?: string };
        if (body.id_token) {
          const [header, payload] = body.id_token.split(".");
          const claims = change(JSON.parse(Buffer.from(payload, "base64url").toString()));
          const input = `${header}.${b64(claims)}`;
          body.id_token = `${input}.${sign("sha256", Buffer.from(input), signingKey).toString("base64url")}`;
          chunk = JSON.stringify(body);
          res.setHeader("content-length", Buffer.byteLength(chunk as string));
        }
      }
      return end(chunk, ...rest);
    }) as ServerResponse["end"];
  }

  return idp;
}
