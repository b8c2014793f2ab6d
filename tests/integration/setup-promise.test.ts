import { randomUUID } from "node:crypto";
import { beforeEach, expect, it } from "vitest";
import { appFetch } from "../support/app-harness";
import { describeEachDatabase } from "../support/test-database";

// The promise matches the product: a plan card says "Instant setup" only for a plan that activates as
// soon as it is paid, "Set up after approval" for the others, on the plan page and the home page, in
// each language; the SA-MP page's own subtitle no longer promises it for every plan.
describeEachDatabase("the setup a plan card promises", (app) => {
  beforeEach(async () => {
    await app().db.updateTable("products").set({ activate_when_paid: 0 }).execute();
    await app()
      .db.updateTable("products")
      .set({ activate_when_paid: 1 })
      .where("slug", "=", "samp-starter")
      .execute();
  });

  /** Each plan card of a page: its name and the promise it makes (its `data-setup-promise` line). */
  async function promises(path: string) {
    const html = await (await appFetch(app())(`${path}&unique=${randomUUID()}`)).text();
    return html
      .split("<article")
      .slice(1)
      .map((card) => ({
        name: /<h3[^>]*><bdi>([^<]*)<\/bdi>/.exec(card)?.[1],
        promise: /data-setup-promise[^>]*>(?:<svg[\s\S]*?<\/svg>)?([^<]*)</.exec(card)?.[1],
      }))
      .filter((card) => card.name !== undefined);
  }

  it.each([
    ["en", "Instant setup", "Set up after approval"],
    ["fr", "Installation instantanée", "Installation après validation"],
    ["ar", "تفعيل فوري", "التفعيل بعد الموافقة"],
  ])(
    "promises instant setup only for the plan that activates when paid (%s)",
    async (lang, now, later) => {
      const cards = await promises(`/services/samp?lang=${lang}`);
      expect(cards).toHaveLength(3);
      expect(cards[0]!.promise).toBe(now);
      expect(cards.slice(1).map((card) => card.promise)).toEqual([later, later]);
      // The home page's popular plans are the same cards.
      const home = await promises(`/?lang=${lang}`);
      expect(home.map((card) => card.promise)).toEqual([now, later, later]);
    },
  );

  it("promises it for no plan once none activates when paid, and the page says it nowhere", async () => {
    await app().db.updateTable("products").set({ activate_when_paid: 0 }).execute();
    const html = await (await appFetch(app())(`/services/samp?unique=${randomUUID()}`)).text();
    expect(html).not.toMatch(/instant setup/i);
    expect(html.match(/Set up after approval/g)).toHaveLength(3);
  });
});
