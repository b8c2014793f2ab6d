import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { serviceListQuerySchema } from "~/domain/hosting-services/hosting-services.schemas";
import { badgeTexts, renderHtml } from "../../../tests/support/render-html";
import { ServicesAdmin, type AdminServiceRow } from "./services-admin";

const service = (expiresAt: string): AdminServiceRow => ({
  id: 1,
  name: "SAMP Starter",
  serverName: "Karim RP",
  userId: "u1",
  userEmail: "karim@example.com",
  userName: "Karim",
  cyclePriceCents: 250,
  billingCycle: "monthly",
  status: "active",
  expiresAt,
  adminNote: null,
  panel: null,
});

/** The badges of the list's rows, for one service read at the loader's moment `now`. */
async function rowBadges(expiresAt: string, now: string) {
  const Stub = createRoutesStub([
    {
      path: "/admin/services",
      Component: () => (
        <ServicesAdmin
          services={[service(expiresAt)]}
          hasMore={false}
          query={serviceListQuerySchema.parse({})}
          editing={null}
          products={[]}
          locale="en"
          now={now}
        />
      ),
    },
  ]);
  const html = await renderHtml(<Stub initialEntries={["/admin/services"]} />);
  const rows = html.slice(html.indexOf("<tbody"), html.indexOf("</tbody>"));
  return badgeTexts(rows);
}

describe("the admin's services list", () => {
  // An expiry on the other side of the loader's moment than of the real clock: a badge that read the
  // clock as it renders (and so could differ when the browser hydrates it) fails here.
  it("reads each expiry against the loader's moment, not the clock", async () => {
    expect(await rowBadges("2099-05-01T12:00:00.000Z", "2099-05-02T12:00:00.000Z")).toEqual([
      "Expired",
    ]);
    expect(await rowBadges("2020-03-01T12:00:00.000Z", "2020-02-01T12:00:00.000Z")).toEqual([
      "Active",
    ]);
  });
});
