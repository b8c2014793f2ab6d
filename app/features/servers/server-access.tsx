import { ExternalLinkIcon } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { CopyButton } from "~/components/ui/copy-button";
import { formResultProps } from "~/components/ui/form-result";
import { useBusy } from "~/components/ui/use-busy";
import type { ServerAccess as Access, ServerPageView } from "~/domain/servers/server-control";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { AnswerMessage } from "./server-answer-message";
import type { ServerAnswer } from "./server-answers";

// How to reach the server's files and the panel: SFTP's host, port and username to copy, a new panel and
// SFTP password (drawn on the server, shown once in the answer to its post, never again), and the
// panel's own pages of the server, each in a new tab.

/** One SFTP detail: its name, its value (left to right) and its Copy button. */
function CopyLine({
  id,
  term,
  value,
  copyLabel,
}: {
  id: string;
  term: string;
  value: string;
  copyLabel: string;
}) {
  const { t } = useTranslation("services");
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-2">
        <code id={id} dir="ltr" className="rounded bg-muted px-2 py-1 font-mono break-all">
          {value}
        </code>
        <CopyButton
          targetId={id}
          label={t("customer.panel.copy")}
          accessibleName={copyLabel}
          copied={t("customer.panel.copied")}
          failed={t("customer.panel.copyFailed")}
        />
      </dd>
    </div>
  );
}

/** The new password, in the answer to the post that drew it: to copy now, for it is not kept. */
function NewPassword({ answer }: { answer: ServerAnswer & { password: string } }) {
  const { t } = useTranslation("services");
  const message = useMessage();
  return (
    // Brought into view and focused after the post, as the kit's outcomes are.
    <div
      {...formResultProps}
      className="grid gap-2 rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900"
      data-testid="server-new-password"
    >
      <p role="status">{t("server.password.shown")}</p>
      {answer.username ? (
        <p>
          {t("server.password.username")}{" "}
          <code dir="ltr" className="font-mono">
            {answer.username}
          </code>
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <code
          id="server-new-password-value"
          dir="ltr"
          className="rounded bg-background px-2 py-1 font-mono break-all"
        >
          {answer.password}
        </code>
        <CopyButton
          targetId="server-new-password-value"
          label={t("customer.panel.copy")}
          accessibleName={t("server.password.copyLabel")}
          copied={t("customer.panel.copied")}
          failed={t("customer.panel.copyFailed")}
        />
      </div>
      <p className="font-medium">{t("server.password.once")}</p>
      {answer.message ? <p>{message(answer.message)}</p> : null}
    </div>
  );
}

function PasswordForm({ pagePath, answer }: { pagePath: string; answer?: ServerAnswer }) {
  const { t } = useTranslation("services");
  const busy = useBusy();
  const mine = answer?.form === "password" ? answer : undefined;
  return (
    <div className="grid gap-2" data-testid="server-password">
      <h3 className="font-medium">{t("server.password.title")}</h3>
      <p className="text-sm text-muted-foreground">{t("server.password.intro")}</p>
      {mine?.ok && mine.password ? (
        <NewPassword answer={{ ...mine, password: mine.password }} />
      ) : (
        <Form method="post" action={pagePath}>
          <input type="hidden" name="intent" value="password" />
          {/* A long sentence in French: it wraps on a phone rather than widen the page. */}
          <Button
            type="submit"
            size="sm"
            variant="outline"
            disabled={busy}
            className="h-auto min-h-9 py-2 text-start whitespace-normal"
          >
            {t("server.password.submit")}
          </Button>
        </Form>
      )}
      {mine && !mine.ok ? <AnswerMessage answer={mine} /> : null}
    </div>
  );
}

/** The panel's pages of the server: another site, so each opens in a new tab (and says so). */
function PanelLinks({ links }: { links: NonNullable<ServerPageView["panelLinks"]> }) {
  const { t } = useTranslation("services");
  const pages = [
    { href: links.console, label: t("server.links.console") },
    { href: links.files, label: t("server.links.files") },
    { href: links.startup, label: t("server.links.startup") },
  ];
  return (
    <div className="grid gap-2">
      <h3 className="font-medium">{t("server.links.title")}</h3>
      <ul className="flex flex-wrap gap-2" data-testid="server-panel-links">
        {pages.map((page) => (
          <li key={page.href}>
            <Button asChild size="sm" variant="outline">
              <a href={page.href} target="_blank" rel="noopener noreferrer">
                {page.label}
                <span className="sr-only"> {t("server.links.newTab")}</span>
                <ExternalLinkIcon aria-hidden className="rtl:-scale-x-100" />
              </a>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ServerAccessCard({
  access,
  panelLinks,
  pagePath,
  answer,
}: {
  access: Access | null;
  panelLinks: ServerPageView["panelLinks"];
  pagePath: string;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  return (
    <TitledCard title={t("server.access.title")} contentClassName="grid gap-5">
      <div className="grid gap-2">
        <h3 className="font-medium">{t("server.access.sftp")}</h3>
        {access ? (
          <dl className="grid gap-2 text-sm" data-testid="server-sftp">
            <CopyLine
              id="server-sftp-host"
              term={t("server.access.host")}
              value={access.host}
              copyLabel={t("server.access.copyHost")}
            />
            <CopyLine
              id="server-sftp-port"
              term={t("server.access.port")}
              value={String(access.port)}
              copyLabel={t("server.access.copyPort")}
            />
            <CopyLine
              id="server-sftp-username"
              term={t("server.access.username")}
              value={access.username}
              copyLabel={t("server.access.copyUsername")}
            />
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">{t("server.access.unknown")}</p>
        )}
      </div>
      <PasswordForm pagePath={pagePath} answer={answer} />
      {panelLinks ? <PanelLinks links={panelLinks} /> : null}
    </TitledCard>
  );
}
