import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch, type AppFetch } from "../support/app-harness";
import { balanceOf } from "../support/money-fixtures";
import { STAFF_MEMBER_PASSWORD, staffMember } from "../support/staff-members";
import { describeEachDatabase } from "../support/test-database";
import { customerWithTicket } from "../support/ticket-fixtures";

// A coin change past the role's cap, posted from the ticket page: the use-case refuses it (403) and the
// page says why with the cap, in the reader's language, beside the form it came from.
describeEachDatabase("the coin caps on the ticket page", (app) => {
  let fetchApp: AppFetch;
  beforeAll(() => {
    fetchApp = appFetch(app());
  });

  async function signedInMember(role: "support" | "billing", ip: string) {
    const id = await staffMember(app(), role);
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return signedInCookie(app(), { email, password: STAFF_MEMBER_PASSWORD }, { ip });
  }

  it("refuses Support more than the daily limit in one credit, and says up to how much", async () => {
    const cookie = await signedInMember("support", "10.58.0.1");
    const { owner, ticket } = await customerWithTicket(app());
    const post = (lang: string) =>
      fetchApp(`/admin/tickets/${ticket.id}?lang=${lang}`, {
        cookie,
        form: {
          intent: "coins",
          amount: "21",
          creditAs: "goodwill",
          idempotencyKey: randomUUID(),
        },
      });
    const english = await post("en");
    expect(english.status).toBe(403);
    expect(await english.text()).toContain(
      "That is more than your role may change at once (up to 20 coins)",
    );
    const french = await post("fr");
    expect(french.status).toBe(403);
    expect(await french.text()).toContain("(jusqu’à 20 coins)");
    expect(await balanceOf(app(), owner)).toBe(0);
  });
});
