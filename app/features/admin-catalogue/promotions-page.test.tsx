import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { voucherListQuerySchema } from "~/domain/promotions/promotions.schemas";
import { renderHtml } from "../../../tests/support/render-html";
import { PromotionsPage } from "./promotions-page";

/** /admin/promotions with the new-voucher editor open, as the server sends it on `today`. */
function renderNewVoucher(today: string) {
  const Stub = createRoutesStub([
    {
      path: "/admin/promotions",
      Component: () => (
        <PromotionsPage
          area="promotions"
          vouchers={[]}
          hasMore={false}
          total={0}
          products={[]}
          editing="new"
          today={today}
          query={voucherListQuerySchema.parse({ edit: "new" })}
          locale="en"
        />
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/admin/promotions?edit=new"]} />);
}

describe("the new voucher's form", () => {
  it("starts on the server's day, not the clock of whoever renders it", async () => {
    // A day the real clock is not on: a form that read the clock would hydrate to another day.
    const html = await renderNewVoucher("2031-03-04");
    const validFrom = /<input[^>]*name="validFrom"[^>]*>/.exec(html)?.[0] ?? "";
    expect(validFrom).toContain('value="2031-03-04"');
  });
});
