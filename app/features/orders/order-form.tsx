import { useMemo, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { CoinDialog } from "~/components/layout/coin-dialog";
import type { ShellUser } from "~/components/layout/types";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
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
import { messageKey } from "~/lib/message-key";

export interface OrderFormState {
  fieldErrors?: Record<string, string>;
  formError?: string;
  missingCents?: number;
  totalCents?: number;
  minPurchaseCents?: number;
  loginUrl?: string;
  values?: Record<string, string>;
}

const selectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base aria-invalid:border-destructive md:text-sm";

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
  const errorText = (key?: string) =>
    key ? (t as (k: string, o?: object) => string)(messageKey(key)) : undefined;

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
              className="grid gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-destructive"
            >
              <p>
                {(t as (k: string, o?: object) => string)(messageKey(state.formError), {
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

          <Field id="productId" label={t("form.service")} error={errorText(errors.productId)}>
            <select
              id="productId"
              name="productId"
              className={selectClass}
              value={productId}
              onChange={(event) => setProductId(event.target.value)}
              required
              {...fieldAria("productId", errors.productId)}
            >
              <option value="">{t("form.chooseService")}</option>
              {products.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} — {t("form.perMonth", { amount: euros(p.priceCents) })}
                </option>
              ))}
            </select>
          </Field>

          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              id="billingCycle"
              label={t("form.billingCycle")}
              error={errorText(errors.billingCycle)}
            >
              <select
                id="billingCycle"
                name="billingCycle"
                className={selectClass}
                value={cycle}
                onChange={(event) => setCycle(event.target.value as BillingCycle)}
              >
                {BILLING_CYCLE_IDS.map((id) => (
                  <option key={id} value={id}>
                    {t(BILLING_CYCLE_LABELS[id])}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="location" label={t("form.location")} error={errorText(errors.location)}>
              <select
                id="location"
                name="location"
                className={selectClass}
                defaultValue={values.location ?? "germany"}
              >
                {LOCATIONS.map((id) => (
                  <option key={id} value={id}>
                    {t(LOCATION_LABELS[id])}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="ddosProtection" label={t("form.ddosProtection")}>
              <select
                id="ddosProtection"
                name="ddosProtection"
                className={selectClass}
                defaultValue={values.ddosProtection ?? "yes"}
              >
                <option value="yes">{t("form.yes")}</option>
                <option value="no">{t("form.no")}</option>
              </select>
            </Field>
            {product && product.type !== "vps" ? (
              <Field
                id="playerSlots"
                label={t("form.playerSlots")}
                error={errorText(errors.playerSlots)}
              >
                <select
                  id="playerSlots"
                  name="playerSlots"
                  className={selectClass}
                  defaultValue={values.playerSlots ?? String(DEFAULT_PLAYER_SLOTS)}
                >
                  {PLAYER_SLOTS.map((slots) => (
                    <option key={slots} value={slots}>
                      {slots}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            <Field id="backup" label={t("form.backup")} error={errorText(errors.backup)}>
              <select
                id="backup"
                name="backup"
                className={selectClass}
                value={backup}
                onChange={(event) => setBackup(event.target.value as Backup)}
              >
                {BACKUP_IDS.map((id) => (
                  <option key={id} value={id}>
                    {t(BACKUP_LABELS[id])}
                  </option>
                ))}
              </select>
            </Field>
          </div>

          <Field id="serverName" label={t("form.serverName")} error={errorText(errors.serverName)}>
            <Input
              id="serverName"
              name="serverName"
              required
              maxLength={MAX_SERVER_NAME_LENGTH}
              defaultValue={values.serverName}
              dir="auto"
              {...fieldAria("serverName", errors.serverName)}
            />
          </Field>
          <Field
            id="voucherCode"
            label={t("form.voucherCode")}
            error={errorText(errors.voucherCode)}
          >
            <Input
              id="voucherCode"
              name="voucherCode"
              maxLength={40}
              defaultValue={values.voucherCode}
              dir="ltr"
              autoCapitalize="characters"
              {...fieldAria("voucherCode", errors.voucherCode)}
            />
          </Field>

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
