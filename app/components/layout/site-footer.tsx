import { useEffect, useRef } from "react";
import type { MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { useFetcher, useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { liveChatLinks } from "~/domain/settings/settings";
import {
  NEWSLETTER_OUTCOMES,
  newsletterErrorOutcome,
  readNewsletterOutcome,
  type NewsletterOutcome,
} from "~/domain/site/site";
import { LanguageSwitcher } from "./language-switcher";
import { SERVICE_LINKS } from "./site-header";
import type { ShellProps } from "./types";

/**
 * What the newsletter box says after a post (common namespace; literal keys). The refusals are the
 * contact form's own email errors, kept in common rather than in the site namespace: every page carries
 * the footer, and reading the site namespace put the public pages' whole catalogue (10.7 KB) into every
 * signed-in page (ADR 29).
 */
const NEWSLETTER_TEXT = {
  thanks: "footer.newsletterThanks",
  emailRequired: "errors.emailRequired",
  emailInvalid: "errors.emailInvalid",
} as const satisfies Record<NewsletterOutcome, string>;

/** A link of the footer: to a page of the site (`to`), or to another site (`href`, in a new tab). */
type FooterItem = { label: string } & ({ to: string } | { href: string });

/** The links to other sites whose address the admin set (a link left empty is left out). */
function setLinks(items: { href: string | null | undefined; label: string }[]) {
  return items.filter((item): item is { href: string; label: string } => Boolean(item.href));
}

/** The company column's pages (common namespace keys, written out so the catalogue test sees them). */
const COMPANY_LINKS = [
  { to: "/about", key: "footer.aboutUs" },
  { to: "/contact", key: "footer.contactUs" },
  { to: "/service-terms", key: "footer.serviceTerms" },
  { to: "/privacy", key: "footer.privacy" },
  { to: "/orange-money", key: "footer.orangeMoney" },
  { to: "/knowledgebase", key: "footer.knowledgebase" },
  { to: "/phpmyadmin", key: "footer.phpmyadmin" },
] as const;

/** `year`: the server's, for the copyright line. */
export function SiteFooter({ user, settings, locale, year }: ShellProps & { year: number }) {
  const { t } = useTranslation();
  const { links, general } = settings;
  // Chat channels follow the live chat switch; a link the admin left empty is left out.
  const chat = liveChatLinks(settings);
  const social = setLinks([
    { href: chat.community, label: t("social.discord") },
    { href: chat.whatsapp, label: t("social.whatsapp") },
    { href: chat.telegram, label: t("social.telegram") },
    { href: `mailto:${general.contactEmail}`, label: t("social.email") },
    { href: links.github, label: t("social.github") },
    { href: links.instagram, label: t("social.instagram") },
    { href: links.facebook, label: t("social.facebook") },
  ]);
  const services: FooterItem[] = [
    ...SERVICE_LINKS,
    { to: "/game-hosting", key: "nav.gameHosting" } as const,
  ].map(({ to, key }) => ({ to, label: t(key) }));
  const company = COMPANY_LINKS.map(({ to, key }) => ({ to, label: t(key) }));
  const clientArea: FooterItem[] = user
    ? [{ to: "/my-services", label: t("footer.myServices") }]
    : [{ to: "/login", label: t("nav.login") }];
  if (user?.role === "admin") clientArea.push({ to: "/admin", label: t("footer.adminPanel") });
  if (!user && settings.features.registration)
    clientArea.push({ to: "/register", label: t("nav.register") });
  clientArea.push(
    ...setLinks([
      { href: links.gamePanel, label: t("footer.gamePanel") },
      { href: links.databaseAdmin, label: t("footer.databaseAdmin") },
    ]),
  );

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
        <FooterColumn title={t("footer.services")} items={services} />
        <FooterColumn title={t("footer.company")} items={company} />
        <FooterColumn title={t("footer.clientArea")} items={clientArea} />
      </div>
      <div className="border-t border-slate-700">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-wrap items-center gap-4">
            <p>{t("footer.rights", { year, siteName: general.siteName })}</p>
            <LanguageSwitcher locale={locale} id="language-footer" />
          </div>
          <ul className="flex flex-wrap gap-4" aria-label={t("footer.social")}>
            <FooterLinks items={social} />
          </ul>
        </div>
      </div>
    </footer>
  );
}

function FooterColumn({ title, items }: { title: string; items: FooterItem[] }) {
  return (
    <div>
      <h2 className="font-semibold text-white">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        <FooterLinks items={items} />
      </ul>
    </div>
  );
}

/** Each link a list item; one to another site opens in a new tab. */
function FooterLinks({ items }: { items: FooterItem[] }) {
  return items.map((item) => (
    <li key={item.label}>
      {"to" in item ? (
        <Link className="hover:text-white" to={item.to}>
          {item.label}
        </Link>
      ) : (
        <a className="hover:text-white" href={item.href} rel="noopener noreferrer" target="_blank">
          {item.label}
        </a>
      )}
    </li>
  ));
}

function NewsletterBox() {
  const { t } = useTranslation();
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
        text: t(NEWSLETTER_TEXT[fetched.ok ? "thanks" : newsletterErrorOutcome(fetched.error)]),
      }
    : returned
      ? {
          ok: returned === "thanks",
          text: t(NEWSLETTER_TEXT[returned]),
        }
      : null;
  // For site-footer.enhance.ts, which sends the box with fetch on a page served without React.
  const outcomes = Object.fromEntries(
    NEWSLETTER_OUTCOMES.map((name) => [name, t(NEWSLETTER_TEXT[name])]),
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
