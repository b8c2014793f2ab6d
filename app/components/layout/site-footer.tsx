import { useEffect, useRef } from "react";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { Link, useFetcher, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { liveChatLinks } from "~/domain/settings/settings";
import {
  NEWSLETTER_OUTCOMES,
  readNewsletterOutcome,
  type NewsletterOutcome,
} from "~/domain/site/site";
import { LanguageSwitcher } from "./language-switcher";
import type { ShellProps } from "./types";

/** What the newsletter box says after a post without JavaScript (site namespace; literal keys). */
const NEWSLETTER_TEXT = {
  thanks: "newsletter.thanks",
  emailRequired: "errors.emailRequired",
  emailInvalid: "errors.emailInvalid",
} as const satisfies Record<NewsletterOutcome, string>;

export function SiteFooter({ user, settings, locale }: ShellProps) {
  const { t } = useTranslation();
  const { links, general } = settings;
  // Chat channels follow the live chat switch; a link the admin left empty is left out.
  const chat = liveChatLinks(settings);
  const social = [
    { href: chat.community, label: t("social.discord") },
    { href: chat.whatsapp, label: t("social.whatsapp") },
    { href: chat.telegram, label: t("social.telegram") },
    { href: `mailto:${general.contactEmail}`, label: t("social.email") },
    { href: links.github, label: t("social.github") },
    { href: links.instagram, label: t("social.instagram") },
    { href: links.facebook, label: t("social.facebook") },
  ].filter((item): item is { href: string; label: string } => Boolean(item.href));

  return (
    <footer className="mt-16 border-t bg-secondary text-slate-200">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <p className="text-lg font-bold text-white">{general.siteName}</p>
          {/* The admin's own description as written; empty, the built-in one in the reader's language. */}
          <p
            className="mt-2 text-sm text-slate-300"
            dir={general.siteDescription ? "auto" : undefined}
          >
            {general.siteDescription || t("footer.tagline")}
          </p>
          <NewsletterBox />
        </div>
        <FooterColumn title={t("footer.services")}>
          <FooterLink to="/services/samp">{t("nav.sampHosting")}</FooterLink>
          <FooterLink to="/services/mta">{t("nav.mtaHosting")}</FooterLink>
          <FooterLink to="/services/vps">{t("nav.vpsHosting")}</FooterLink>
          <FooterLink to="/game-hosting">{t("nav.gameHosting")}</FooterLink>
        </FooterColumn>
        <FooterColumn title={t("footer.company")}>
          <FooterLink to="/about">{t("footer.aboutUs")}</FooterLink>
          <FooterLink to="/contact">{t("footer.contactUs")}</FooterLink>
          <FooterLink to="/service-terms">{t("footer.serviceTerms")}</FooterLink>
          <FooterLink to="/privacy">{t("footer.privacy")}</FooterLink>
          <FooterLink to="/orange-money">{t("footer.orangeMoney")}</FooterLink>
          <FooterLink to="/phpmyadmin">{t("footer.phpmyadmin")}</FooterLink>
        </FooterColumn>
        <FooterColumn title={t("footer.clientArea")}>
          {user ? (
            <>
              <FooterLink to="/my-services">{t("footer.myServices")}</FooterLink>
              {user.role === "admin" ? (
                <FooterLink to="/admin">{t("footer.adminPanel")}</FooterLink>
              ) : null}
            </>
          ) : (
            <>
              <FooterLink to="/login">{t("nav.login")}</FooterLink>
              {settings.features.registration ? (
                <FooterLink to="/register">{t("nav.register")}</FooterLink>
              ) : null}
            </>
          )}
          {links.gamePanel ? (
            <ExternalFooterLink href={links.gamePanel}>{t("footer.gamePanel")}</ExternalFooterLink>
          ) : null}
          {links.databaseAdmin ? (
            <ExternalFooterLink href={links.databaseAdmin}>
              {t("footer.databaseAdmin")}
            </ExternalFooterLink>
          ) : null}
        </FooterColumn>
      </div>
      <div className="border-t border-slate-700">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-wrap items-center gap-4">
            <p>
              {t("footer.rights", { year: new Date().getFullYear(), siteName: general.siteName })}
            </p>
            <LanguageSwitcher locale={locale} id="language-footer" />
          </div>
          <ul className="flex flex-wrap gap-4" aria-label={t("footer.social")}>
            {social.map((item) => (
              <ExternalFooterLink key={item.label} href={item.href}>
                {item.label}
              </ExternalFooterLink>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}

function FooterColumn({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h2 className="font-semibold text-white">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">{children}</ul>
    </div>
  );
}

function FooterLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <li>
      <Link className="hover:text-white" to={to}>
        {children}
      </Link>
    </li>
  );
}

/** A link to another site (the game panel, a social page), opened in a new tab. */
function ExternalFooterLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <li>
      <a className="hover:text-white" href={href} rel="noopener noreferrer" target="_blank">
        {children}
      </a>
    </li>
  );
}

function NewsletterBox() {
  const { t } = useTranslation();
  const { t: tSite } = useTranslation("site");
  const message = useMessage();
  const location = useLocation();
  const fetcher = useFetcher<{ ok: boolean; error?: MessageKey }>();
  const formRef = useRef<HTMLFormElement>(null);
  const fetched = fetcher.state === "idle" ? fetcher.data : undefined;
  // Spec section 5: on success the field clears and the visitor is thanked.
  useEffect(() => {
    if (fetched?.ok) formRef.current?.reset();
  }, [fetched]);
  // Posted without JavaScript, the server sends the browser back here with ?newsletter=<outcome>.
  const params = new URLSearchParams(location.search);
  const returned = readNewsletterOutcome(params.get("newsletter"));
  params.delete("newsletter");
  const back = `${location.pathname}${params.size > 0 ? `?${params.toString()}` : ""}`;
  const outcome = fetched
    ? {
        ok: fetched.ok,
        text: fetched.ok
          ? tSite("newsletter.thanks")
          : message(fetched.error ?? "site.errors.emailInvalid"),
      }
    : returned
      ? {
          ok: returned === "thanks",
          text: tSite(NEWSLETTER_TEXT[returned]),
        }
      : null;
  // For site-footer.enhance.ts, which sends the box with fetch on a page served without React.
  const outcomes = Object.fromEntries(
    NEWSLETTER_OUTCOMES.map((name) => [name, tSite(NEWSLETTER_TEXT[name])]),
  );
  return (
    <fetcher.Form
      ref={formRef}
      id="newsletter"
      method="post"
      action="/newsletter"
      className="mt-6 max-w-sm scroll-mt-24"
      data-outcomes={JSON.stringify(outcomes)}
    >
      <h2 className="font-semibold text-white">{t("footer.newsletterTitle")}</h2>
      <p className="mt-1 text-sm text-slate-300">{t("footer.newsletterText")}</p>
      <input type="hidden" name="redirectTo" value={back} />
      <Label htmlFor="newsletter-email" className="mt-3 block text-sm text-slate-200">
        {t("footer.newsletterEmail")}
      </Label>
      <div className="mt-1 flex gap-2">
        <Input
          id="newsletter-email"
          name="email"
          type="email"
          required
          autoComplete="email"
          className="min-w-0 bg-white text-foreground"
          dir="ltr"
          aria-describedby="newsletter-status"
          aria-invalid={outcome && !outcome.ok ? true : undefined}
        />
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {t("footer.subscribe")}
        </Button>
      </div>
      {/* Always in the page, so screen readers announce the outcome when it appears. */}
      <p
        id="newsletter-status"
        role="status"
        className={outcome?.ok ? "mt-2 text-sm text-green-300" : "mt-2 text-sm text-red-300"}
      >
        {outcome?.text}
      </p>
    </fetcher.Form>
  );
}
