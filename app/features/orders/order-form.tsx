import { useMemo, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { CoinDialog } from "~/components/layout/coin-dialog";
import type { ShellUser } from "~/components/layout/types";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FormFields, type FieldSpec } from "~/components/ui/form-card";
import type { Product } from "~/domain/catalogue/catalogue";
import type { PublicSettings } from "~/domain/settings/settings";
import {
  BACKUP_IDS,
  BACKUP_LABELS,
  BILLING_CYCLE_IDS,
  BILLING_CYCLE_LABELS,
  DEFAULT_PLAYER_SLOTS,
  LOCATION_LABELS,
  LOCATIONS,
  MAX_SERVER_NAME_LENGTH,
  PLAYER_SLOTS,
  quote,
  type Backup,
  type BillingCycle,
  formatShownPrices,
} from "~/domain/orders/orders";
import { formatCoins, formatEuros } from "~/lib/money";
import { useMessage, type MessageKey } from "~/i18n/use-message";

export interface OrderFormState {
  fieldErrors?: Record<string, MessageKey>;
  formError?: MessageKey;
  missingCents?: number;
  totalCents?: number;
  minPurchaseCents?: number;
  loginUrl?: string;
  values?: Record<string, string>;
}

export function OrderForm({
  products,
  selectedProductId,
  idempotencyKey,
  user,
  settings,
  locale,
  state,
}: {
  products: Product[];
  selectedProductId: number | null;
  idempotencyKey: string;
  user: ShellUser | null;
  settings: PublicSettings | undefined;
  locale: string;
  state?: OrderFormState;
}) {
  const { t } = useTranslation("orders");
  const submitting = useNavigation().state !== "idle";
  const values = state?.values ?? {};
  const errors = state?.fieldErrors ?? {};
  const [productId, setProductId] = useState<string>(
    values.productId ?? (selectedProductId ? String(selectedProductId) : ""),
  );
  const [cycle, setCycle] = useState<BillingCycle>(
    (values.billingCycle as BillingCycle) ?? "monthly",
  );
  const [backup, setBackup] = useState<Backup>((values.backup as Backup) ?? "choliba");
  const product = products.find((p) => String(p.id) === productId);
  // The same pure function the server charges with.
  const price = useMemo(
    () => (product ? quote({ productPriceCents: product.priceCents, cycle, backup }) : null),
    [product, cycle, backup],
  );
  const euros = (cents: number) => formatEuros(cents, locale);
  const message = useMessage();

  return (
    <main className="mx-auto grid max-w-6xl gap-8 px-4 py-10 lg:grid-cols-[1fr_22rem]">
      <section>
        <h1 className="text-3xl font-bold">{t("form.heading")}</h1>
        <p className="mt-2 text-muted-foreground">{t("form.subheading")}</p>

        <Form method="post" className="mt-6 grid gap-5" noValidate>
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <input type="hidden" name="shownPrices" value={formatShownPrices(products)} />
          {state?.formError ? (
            <div
              role="alert"
              className="grid gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-700"
            >
              <p>
                {message(state.formError, {
                  missing: euros(state.missingCents ?? 0),
                  total: euros(state.totalCents ?? 0),
                  amount: euros(state.minPurchaseCents ?? 0),
                })}
              </p>
              {state.loginUrl ? (
                <Button asChild size="sm" className="w-fit">
                  <Link to={state.loginUrl}>{t("form.login")}</Link>
                </Button>
              ) : null}
              {state.formError === "orders.errors.insufficientCoins" && user && settings ? (
                <div className="w-fit">
                  <CoinDialog user={user} settings={settings} locale={locale} />
                </div>
              ) : null}
            </div>
          ) : null}

          <FormFields
            errors={errors}
            fields={[
              {
                kind: "select",
                name: "productId",
                label: t("form.service"),
                variant: "validated",
                value: productId,
                onChange: (event) => setProductId(event.target.value),
                required: true,
                options: [
                  { value: "", label: t("form.chooseService") },
                  ...products.map((p) => ({
                    value: String(p.id),
                    label: (
                      <>
                        {p.name} — {t("form.perMonth", { amount: euros(p.priceCents) })}
                      </>
                    ),
                  })),
                ],
              },
              {
                kind: "row",
                className: "grid gap-5 sm:grid-cols-2",
                fields: [
                  {
                    kind: "select",
                    name: "billingCycle",
                    label: t("form.billingCycle"),
                    variant: "validated",
                    value: cycle,
                    onChange: (event) => setCycle(event.target.value as BillingCycle),
                    options: BILLING_CYCLE_IDS.map((id) => ({
                      value: id,
                      label: t(BILLING_CYCLE_LABELS[id]),
                    })),
                  },
                  {
                    kind: "select",
                    name: "location",
                    label: t("form.location"),
                    variant: "validated",
                    defaultValue: values.location ?? "germany",
                    options: LOCATIONS.map((id) => ({ value: id, label: t(LOCATION_LABELS[id]) })),
                  },
                  {
                    kind: "select",
                    name: "ddosProtection",
                    label: t("form.ddosProtection"),
                    variant: "validated",
                    defaultValue: values.ddosProtection ?? "yes",
                    options: [
                      { value: "yes", label: t("form.yes") },
                      { value: "no", label: t("form.no") },
                    ],
                  },
                  ...(product && product.type !== "vps"
                    ? [
                        {
                          kind: "select",
                          name: "playerSlots",
                          label: t("form.playerSlots"),
                          variant: "validated",
                          defaultValue: values.playerSlots ?? String(DEFAULT_PLAYER_SLOTS),
                          options: PLAYER_SLOTS.map((slots) => ({
                            value: String(slots),
                            label: slots,
                          })),
                        } satisfies FieldSpec,
                      ]
                    : []),
                  {
                    kind: "select",
                    name: "backup",
                    label: t("form.backup"),
                    variant: "validated",
                    value: backup,
                    onChange: (event) => setBackup(event.target.value as Backup),
                    options: BACKUP_IDS.map((id) => ({ value: id, label: t(BACKUP_LABELS[id]) })),
                  },
                ],
              },
              {
                kind: "input",
                name: "serverName",
                label: t("form.serverName"),
                required: true,
                maxLength: MAX_SERVER_NAME_LENGTH,
                defaultValue: values.serverName,
                dir: "auto",
              },
              {
                kind: "input",
                name: "voucherCode",
                label: t("form.voucherCode"),
                maxLength: 40,
                defaultValue: values.voucherCode,
                dir: "ltr",
                autoCapitalize: "characters",
              },
            ]}
          />

          <Button
            type="submit"
            size="lg"
            disabled={submitting || !productId}
            aria-busy={submitting}
          >
            {submitting ? t("form.submitting") : t("form.submit")}
          </Button>
        </Form>
      </section>

      <aside aria-live="polite">
        <Card className="lg:sticky lg:top-24">
          <CardHeader>
            <CardTitle>{t("form.summary")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            {product && price ? (
              <>
                <p className="font-medium">{product.name}</p>
                <Row label={t("form.pricePerMonth")} value={euros(price.monthlyCents)} />
                {price.cycleDiscountCents > 0 ? (
                  <Row
                    label={t("form.cycleDiscount")}
                    value={`−${euros(price.cycleDiscountCents)}`}
                  />
                ) : null}
                <Row label={t("form.setupFee")} value={euros(price.setupFeeCents)} />
                <div className="border-t pt-3">
                  <Row
                    label={t("form.total")}
                    value={euros(price.totalCents)}
                    strong
                    testId="order-total"
                  />
                </div>
                <p className="text-muted-foreground">{t("form.voucherNote")}</p>
              </>
            ) : (
              <p className="text-muted-foreground">{t("form.chooseService")}</p>
            )}
            <p className="text-muted-foreground">
              {t("form.paidWithCoins", { rate: formatEuros(100, locale) })}
            </p>
            {user ? (
              <p>{t("form.balance", { amount: formatCoins(user.coinBalanceCents, locale) })}</p>
            ) : null}
          </CardContent>
        </Card>
      </aside>
    </main>
  );
}

function Row({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div
      className={
        strong ? "flex justify-between gap-4 text-base font-bold" : "flex justify-between gap-4"
      }
    >
      <span>{label}</span>
      <span dir="ltr" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}
