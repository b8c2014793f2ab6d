import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Pager } from "~/components/data-table/simple-table";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatCoins } from "~/lib/money";
import { messageKey } from "~/lib/message-key";
import { CoinAdjustForm } from "./coin-adjust-form";
import { StatusMessage } from "~/components/ui/status-message";

interface ClientRow {
  id: string;
  name: string;
  email: string;
  role: string;
  coinBalanceCents: number;
}

export function ClientsAdmin({
  users,
  q,
  page,
  hasMore,
  locale,
  result,
}: {
  users: ClientRow[];
  q: string;
  page: number;
  hasMore: boolean;
  locale: string;
  result?: { ok: boolean; message: string };
}) {
  const { t } = useTranslation("coins");
  const tr = t as (key: string) => string;
  return (
    <main className="grid gap-4">
      <h1 className="text-2xl font-bold">{t("admin.title")}</h1>
      <Form method="get" className="flex max-w-lg gap-2" role="search">
        <Label htmlFor="client-search" className="sr-only">
          {t("admin.search")}
        </Label>
        <Input id="client-search" name="q" defaultValue={q} placeholder={t("admin.search")} />
        <Button type="submit" variant="outline">
          {t("admin.searchButton")}
        </Button>
      </Form>
      {result ? (
        <StatusMessage ok={result.ok}>{tr(messageKey(result.message))}</StatusMessage>
      ) : null}
      {users.length === 0 ? <p className="text-muted-foreground">{t("admin.empty")}</p> : null}
      <ul className="grid gap-3">
        {users.map((user) => (
          <li key={user.id}>
            <Card>
              <CardContent className="grid gap-3 pt-6 md:grid-cols-[1fr_2fr]">
                <div>
                  <p className="font-semibold">{user.name}</p>
                  <p className="text-sm text-muted-foreground" dir="ltr">
                    {user.email}
                  </p>
                  <p className="text-sm">
                    {t("admin.role")}: {user.role} · {t("admin.balance")}:{" "}
                    <span dir="ltr">{formatCoins(user.coinBalanceCents, locale)}</span>
                  </p>
                </div>
                <details>
                  <summary className="cursor-pointer text-sm font-medium text-primary">
                    {t("admin.adjust")}
                  </summary>
                  <div className="mt-3">
                    <CoinAdjustForm
                      userId={user.id}
                      name={user.name}
                      balanceCents={user.coinBalanceCents}
                      locale={locale}
                    />
                  </div>
                </details>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <Pager
        page={page}
        hasMore={hasMore}
        href={(p) => `?${new URLSearchParams({ q, page: String(p) })}`}
        labels={{ previous: "‹", next: "›" }}
      />
    </main>
  );
}
