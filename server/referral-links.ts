import type { NextFunction, Request, Response } from "express";
import type { Db } from "~/db/transaction";
import { normalizeReferralCode } from "~/domain/referrals/referrals";
import { referralCodeExists } from "~/domain/referrals/referrals.server";
import { referralCookie } from "~/http/referral-cookie.server";

/**
 * A referral link (`/?ref=CODE` on any page, docs/referrals.md) is answered here, before the page: a
 * redirect to the same address without `ref`, which sets the cookie when the code is a customer's. The
 * visitor pages are kept by their address (ADR 15), so a page rendered for `?ref=` would be kept, and a
 * cookie set by the page itself lost to the next visitor served from that copy; the redirect carries no
 * page and every link lands on the one address the cache already keeps.
 */
export function referralLinks(db: Db) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.query.ref === undefined) {
      next();
      return;
    }
    try {
      const url = new URL(req.originalUrl, "http://localhost");
      const code = normalizeReferralCode(url.searchParams.get("ref"));
      url.searchParams.delete("ref");
      if (code && (await referralCodeExists(db, code)))
        res.append("Set-Cookie", referralCookie(code));
      res.redirect(302, `${url.pathname}${url.search}`);
    } catch (error) {
      next(error);
    }
  };
}
