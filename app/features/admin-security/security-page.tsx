import { useTranslation } from "~/i18n/use-translation";
import type { SecurityQuery } from "~/domain/accounts/security-admin";
import { FailedLoginsSection, type FailedLoginView } from "./failed-logins-section";
import { ResultMessage } from "~/components/ui/result-message";
import { resultValues, type SecurityActionResult } from "./security-shared";
import { SessionsSection, type SessionView } from "./sessions-section";
import { ThrottlesSection, type RefusalView, type ThrottleView } from "./throttles-section";
import { PageHeading } from "~/components/ui/page-heading";

export function SecurityPage({
  sessions,
  failed,
  throttles,
  refusals,
  addressLimit,
  query,
  locale,
  result,
}: {
  sessions: SessionView[];
  failed: { entries: FailedLoginView[]; hasMore: boolean; last24h: number };
  throttles: ThrottleView[];
  refusals: RefusalView[];
  addressLimit: number;
  query: SecurityQuery;
  locale: string;
  result?: SecurityActionResult;
}) {
  const { t } = useTranslation("admin");
  const { t: tSecurity } = useTranslation("admin-security");
  return (
    <main className="grid min-w-0 gap-8">
      <PageHeading title={t("nav.security")} intro={tSecurity("intro")} />
      {/* A post that named no known action has no section of its own. */}
      {result && !result.intent ? (
        <ResultMessage result={result} values={resultValues(result)} />
      ) : null}
      <SessionsSection sessions={sessions} locale={locale} result={result} />
      <ThrottlesSection
        throttles={throttles}
        refusals={refusals}
        addressLimit={addressLimit}
        locale={locale}
        result={result}
      />
      <FailedLoginsSection
        entries={failed.entries}
        hasMore={failed.hasMore}
        last24h={failed.last24h}
        query={query}
        locale={locale}
      />
    </main>
  );
}
