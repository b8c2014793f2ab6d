import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { AppServices } from "~/context.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { adminId } from "./money-fixtures";

/** Where the stand-in's webhook says it is: the settings take only Discord's webhook addresses. */
export const FAKE_DISCORD_WEBHOOK = "https://discord.com/api/webhooks/1/token";

export interface FakeDiscord {
  /** The webhook address to put in the settings: Discord's, which `send` reaches here. */
  url: string;
  /**
   * The post job's way out (`discordAlertHandlerWith(write, { send })`, `workerHandlers(services,
   * { discordSend })`): fetch, with https://discord.com sent to this stand-in on 127.0.0.1.
   */
  send: typeof fetch;
  /** The same webhook at the stand-in's own address, which the settings refuse (not Discord's). */
  localUrl: string;
  /** Every post received, its JSON body. */
  posts: unknown[];
  /** Every request received, its method and path, whatever it was. */
  requests: { method: string; path: string }[];
  /**
   * The next answers, in order (then 204 No Content). `first` runs before the answer is sent: what
   * happened elsewhere while the post was on its way.
   */
  answer(...replies: Reply[]): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  first?: () => Promise<void>;
}

/**
 * A stand-in for a Discord webhook on 127.0.0.1: records what is posted and answers as scripted. As
 * Discord does, it refuses a body not sent as JSON (400, "Cannot send an empty message"). The settings
 * hold Discord's own address (FAKE_DISCORD_WEBHOOK); the post job reaches this server through `send`.
 */
export async function startFakeDiscord(): Promise<FakeDiscord> {
  const posts: unknown[] = [];
  const requests: { method: string; path: string }[] = [];
  const replies: Reply[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", path: req.url ?? "" });
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.headers["content-type"] !== "application/json") {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "Cannot send an empty message", code: 50006 }));
        return;
      }
      posts.push(JSON.parse(body || "null"));
      const reply = replies.shift() ?? { status: 204 };
      void Promise.resolve(reply.first?.()).then(() => {
        res.writeHead(reply.status, {
          ...(reply.body === undefined ? {} : { "content-type": "application/json" }),
          ...reply.headers,
        });
        res.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: FAKE_DISCORD_WEBHOOK,
    send: (input, init) =>
      fetch(String(input).replace(/^https:\/\/discord\.com(?=\/)/, origin), init),
    localUrl: `${origin}/api/webhooks/1/token`,
    posts,
    requests,
    answer: (...next) => void replies.push(...next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A suite's fake Discord: started once, and before each test no jobs queued, no posts received and
 * the alerts webhook pointing at it. `setWebhook("")` turns the webhook off as the settings form does.
 */
export function withFakeDiscordWebhook(app: () => AppServices) {
  let discord: FakeDiscord;
  async function setWebhook(url: string) {
    await saveSettingsForm(app(), {
      intent: "alerts",
      discordWebhook: url,
      actorId: await adminId(app()),
    });
  }
  beforeAll(async () => {
    discord = await startFakeDiscord();
  });
  afterAll(async () => {
    await discord.close();
  });
  beforeEach(async () => {
    await app().db.deleteFrom("jobs").execute();
    discord.posts.length = 0;
    discord.requests.length = 0;
    await setWebhook(discord.url);
  });
  return { discord: () => discord, setWebhook };
}
