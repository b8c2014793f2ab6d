import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Discord's OAuth2 and the guild member role endpoints on 127.0.0.1, written from
 * Discord's documented API (discord-api-docs: topics/oauth2.md, resources/user.md, resources/guild.md):
 *
 * - GET /oauth2/authorize?response_type=code&client_id&redirect_uri&scope&state[&code_challenge]: a
 *   page where the person picks who they are on Discord (a button per user: the real page asks them to
 *   sign in and authorize), then a redirect to redirect_uri with `code` and `state`; "Cancel" sends
 *   `error=access_denied`.
 * - POST /api/oauth2/token (application/x-www-form-urlencoded: grant_type=authorization_code, code,
 *   redirect_uri, client_id, client_secret, code_verifier): a Bearer token. A code is used once: again,
 *   `400 {"error":"invalid_grant"}`, as is a wrong redirect_uri or PKCE verifier; wrong client
 *   credentials `401 {"error":"invalid_client"}`.
 * - GET /api/users/@me with `Authorization: Bearer`: the user object (id, username, global_name,
 *   email, verified, avatar); a bad token `401 {"message":"401: Unauthorized","code":0}`.
 * - PUT and DELETE /api/guilds/{guild}/members/{user}/roles/{role} with `Authorization: Bot <token>`:
 *   204. A bad bot token 401; the scripted failures (`failNext`): 429 with retry_after, 403 Missing
 *   Permissions (50013), 404 Unknown Member (10007), as Discord answers them.
 */
export interface FakeDiscordApi {
  url: string;
  clientId: string;
  clientSecret: string;
  botToken: string;
  /** Adds a Discord user the authorize page offers. */
  addUser(user: FakeDiscordUser): void;
  /** The role ids each (guild, user) holds. */
  roles(guildId: string, userId: string): string[];
  /** Members of the guild: a role call for another user is 404 Unknown Member. */
  addMember(guildId: string, userId: string): void;
  /** The next role calls' answers, in order, before the normal ones. */
  failNext(...failures: RoleFailure[]): void;
  /** Every role call received: method, path, its audit log reason. */
  roleCalls: { method: string; path: string; reason: string | null }[];
  /** The codes issued, for a test to replay one. */
  issuedCodes: string[];
  close(): Promise<void>;
}

export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  email: string | null;
  verified: boolean;
  avatar?: string | null;
}

export type RoleFailure =
  | { status: 429; retryAfter: number }
  | { status: 401 }
  | { status: 403 }
  | { status: 404; code: number };

interface IssuedCode {
  userId: string;
  redirectUri: string;
  challenge: string | null;
  used: boolean;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return body;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeDiscordApi(
  options: { clientId?: string; clientSecret?: string; botToken?: string } = {},
): Promise<FakeDiscordApi> {
  const clientId = options.clientId ?? "1100000000000000001";
  const clientSecret = options.clientSecret ?? "fake-client-secret";
  const botToken = options.botToken ?? "fake.bot.token";
  const users = new Map<string, FakeDiscordUser>();
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, string>();
  const memberRoles = new Map<string, Set<string>>();
  const members = new Set<string>();
  const failures: RoleFailure[] = [];
  const roleCalls: FakeDiscordApi["roleCalls"] = [];
  const issuedCodes: string[] = [];

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (req.method === "GET" && url.pathname === "/oauth2/authorize") {
        const redirectUri = url.searchParams.get("redirect_uri") ?? "";
        const state = url.searchParams.get("state") ?? "";
        if (url.searchParams.get("client_id") !== clientId || !redirectUri) {
          res.writeHead(400, { "content-type": "text/plain" });
          res.end("Invalid OAuth2 redirect_uri or client_id");
          return;
        }
        const chosen = url.searchParams.get("as");
        if (url.searchParams.get("deny") === "1") {
          const back = new URL(redirectUri);
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("state", state);
          res.writeHead(302, { location: back.toString() });
          res.end();
          return;
        }
        if (chosen && users.has(chosen)) {
          const code = randomBytes(15).toString("hex");
          codes.set(code, {
            userId: chosen,
            redirectUri,
            challenge: url.searchParams.get("code_challenge"),
            used: false,
          });
          issuedCodes.push(code);
          const back = new URL(redirectUri);
          back.searchParams.set("code", code);
          back.searchParams.set("state", state);
          res.writeHead(302, { location: back.toString() });
          res.end();
          return;
        }
        const links = [...users.values()]
          .map((user) => {
            const next = new URL(url);
            next.searchParams.set("as", user.id);
            return `<li><a href="${escape(next.pathname + next.search)}">Authorize as ${escape(user.username)}</a></li>`;
          })
          .join("");
        const deny = new URL(url);
        deny.searchParams.set("deny", "1");
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          `<!doctype html><html lang="en"><head><title>Discord</title></head><body><main><h1>An external application wants to access your Discord account</h1><ul>${links}</ul><a href="${escape(deny.pathname + deny.search)}">Cancel</a></main></body></html>`,
        );
        return;
      }
      if (req.method === "POST" && url.pathname === "/api/oauth2/token") {
        if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
          json(res, 400, { error: "invalid_request" });
          return;
        }
        const form = new URLSearchParams(await bodyOf(req));
        let id: string | null | undefined = form.get("client_id");
        let secret: string | null | undefined = form.get("client_secret");
        const basic = req.headers.authorization?.match(/^Basic (.+)$/);
        if (basic) [id, secret] = Buffer.from(basic[1]!, "base64").toString().split(":");
        if (id !== clientId || secret !== clientSecret) {
          json(res, 401, { error: "invalid_client" });
          return;
        }
        const issued = codes.get(form.get("code") ?? "");
        if (form.get("grant_type") !== "authorization_code" || !issued || issued.used) {
          json(res, 400, {
            error: "invalid_grant",
            error_description: 'Invalid "code" in request.',
          });
          return;
        }
        issued.used = true;
        if (issued.redirectUri !== form.get("redirect_uri")) {
          json(res, 400, {
            error: "invalid_grant",
            error_description: 'Invalid "redirect_uri" in request.',
          });
          return;
        }
        if (issued.challenge) {
          const verifier = form.get("code_verifier") ?? "";
          const challenge = createHash("sha256").update(verifier).digest("base64url");
          if (challenge !== issued.challenge) {
            json(res, 400, { error: "invalid_grant", error_description: "Invalid code_verifier" });
            return;
          }
        }
        const token = randomBytes(15).toString("hex");
        tokens.set(token, issued.userId);
        json(res, 200, {
          access_token: token,
          token_type: "Bearer",
          expires_in: 604800,
          refresh_token: randomBytes(15).toString("hex"),
          scope: "identify email",
        });
        return;
      }
      if (req.method === "GET" && url.pathname === "/api/users/@me") {
        const token = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
        const user = token ? users.get(tokens.get(token) ?? "") : undefined;
        if (!user) {
          json(res, 401, { message: "401: Unauthorized", code: 0 });
          return;
        }
        json(res, 200, {
          id: user.id,
          username: user.username,
          discriminator: "0",
          global_name: user.global_name,
          avatar: user.avatar ?? null,
          email: user.email,
          verified: user.verified,
          mfa_enabled: false,
          locale: "fr",
          flags: 0,
          premium_type: 0,
          public_flags: 0,
        });
        return;
      }
      const role = url.pathname.match(/^\/api\/guilds\/(\d+)\/members\/(\d+)\/roles\/(\d+)$/);
      if (role && (req.method === "PUT" || req.method === "DELETE")) {
        const [, guildId, userId, roleId] = role as unknown as [string, string, string, string];
        const reason = req.headers["x-audit-log-reason"];
        roleCalls.push({
          method: req.method,
          path: url.pathname,
          reason: typeof reason === "string" ? decodeURIComponent(reason) : null,
        });
        if (req.headers.authorization !== `Bot ${botToken}`) {
          json(res, 401, { message: "401: Unauthorized", code: 0 });
          return;
        }
        const failure = failures.shift();
        if (failure?.status === 429) {
          res.writeHead(429, {
            "content-type": "application/json",
            "retry-after": String(Math.ceil(failure.retryAfter)),
          });
          res.end(
            JSON.stringify({
              message: "You are being rate limited.",
              retry_after: failure.retryAfter,
              global: false,
            }),
          );
          return;
        }
        if (failure?.status === 401) {
          json(res, 401, { message: "401: Unauthorized", code: 0 });
          return;
        }
        if (failure?.status === 403) {
          json(res, 403, { message: "Missing Permissions", code: 50013 });
          return;
        }
        if (failure?.status === 404) {
          json(res, 404, { message: "Unknown Member", code: failure.code });
          return;
        }
        const key = `${guildId}/${userId}`;
        if (!members.has(key)) {
          json(res, 404, { message: "Unknown Member", code: 10007 });
          return;
        }
        const held = memberRoles.get(key) ?? new Set<string>();
        if (req.method === "PUT") held.add(roleId);
        else held.delete(roleId);
        memberRoles.set(key, held);
        res.writeHead(204);
        res.end();
        return;
      }
      json(res, 404, { message: "404: Not Found", code: 0 });
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    botToken,
    addUser: (user) => void users.set(user.id, user),
    roles: (guildId, userId) => [...(memberRoles.get(`${guildId}/${userId}`) ?? [])],
    addMember: (guildId, userId) => void members.add(`${guildId}/${userId}`),
    failNext: (...next) => void failures.push(...next),
    roleCalls,
    issuedCodes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
