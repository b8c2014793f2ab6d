import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { AppServices } from "~/context.server";
import { saveSettingsForm } from "~/domain/settings/settings.server";
import { adminId } from "./money-fixtures";

export interface FakeDiscord {
  /** The webhook address to put in the settings. */
  url: string;
  /** Every post received, its JSON body. */
  posts: unknown[];
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
 * Discord does, it refuses a body not sent as JSON (400, "Cannot send an empty message").
 */
export async function startFakeDiscord(): Promise<FakeDiscord> {
  const posts: unknown[] = [];
  const replies: Reply[] = [];
  const server: Server = createServer((req, res) => {
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
  return {
    url: `http://127.0.0.1:${port}/api/webhooks/1/token`,
    posts,
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
    await setWebhook(discord.url);
  });
  return { discord: () => discord, setWebhook };
}
