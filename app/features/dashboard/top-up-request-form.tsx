import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { fieldAria } from "~/components/ui/field";
import { FormFields } from "~/components/ui/form-card";
import {
  formatMethodAmount,
  quoteTopUp,
  type OfferedPaymentMethod,
} from "~/domain/payments/payment-methods";
import {
  DEFAULT_TOP_UP_COINS,
  PRESET_TOP_UP_COINS,
  startingTopUpCoins,
} from "~/domain/payments/top-ups";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import type { TopUpPageResult } from "./top-up-page";

/**
 * The form of a new request: a number of coins (a preset or typed) and an enabled method, with what it
 * costs worked out in the browser by the quote the server makes again (quoteTopUp). Without scripts it
 * is a plain form: the server's answer says what was wrong.
 *
 * Reached from an "Add coins" short of `wantedCoins`, it starts on them for the first method (at least
 * its minimum, at most its maximum); picking another method starts again on them for that one, until
 * the customer picks or types an amount of their own.
 */
export function RequestForm({
  methods,
  purchaseOpen,
  wantedCoins,
  locale,
  result,
}: {
  methods: OfferedPaymentMethod[];
  purchaseOpen: boolean;
  /** Whole coins an "Add coins" link said were missing (?coins=), null without one. */
  wantedCoins: number | null;
  locale: string;
  result?: TopUpPageResult;
}) {
  const { t } = useTranslation("payments");
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const startFor = (each: OfferedPaymentMethod | undefined) =>
    String(
      wantedCoins !== null && each ? startingTopUpCoins(wantedCoins, each) : DEFAULT_TOP_UP_COINS,
    );
  const [coins, setCoins] = useState(() => startFor(methods[0]));
  // The customer's own amount (a preset or typed) stays when they pick another method.
  const [ownAmount, setOwnAmount] = useState(false);
  const chooseCoins = (value: string) => {
    setCoins(value);
    setOwnAmount(true);
  };
  const [methodId, setMethodId] = useState(methods[0]?.id ?? 0);
  const method = methods.find((m) => m.id === methodId);
  const online = method !== undefined && method.kind !== "manual";
  const quoted = method && /^\d+$/.test(coins) ? quoteTopUp(method, Number(coins)) : undefined;
  const error = result && !result.ok && result.intent === "request" ? result : undefined;
  const methodError = error?.fieldErrors?.methodId;
  const closed = purchaseOpen ? t("topUps.noMethods") : t("topUps.closed");
  return (
    <TitledCard title={t("topUps.newRequest")} empty={methods.length === 0 ? closed : undefined}>
      <Form method="post" className="grid gap-5" noValidate>
        {/* A method paid online sends the customer to its provider's page; a manual one asks for a request. */}
        <input type="hidden" name="intent" value={online ? "payOnline" : "request"} />
        {wantedCoins !== null ? (
          <p className="text-sm text-muted-foreground" data-testid="top-up-prefilled">
            {t("topUps.prefilled")}
          </p>
        ) : null}
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">{t("topUps.presets")}</legend>
          <div className="flex flex-wrap gap-2">
            {PRESET_TOP_UP_COINS.map((preset) => (
              <Button
                key={preset}
                type="button"
                size="sm"
                variant={coins === String(preset) ? "default" : "outline"}
                aria-pressed={coins === String(preset)}
                onClick={() => chooseCoins(String(preset))}
              >
                {preset}
              </Button>
            ))}
          </div>
        </fieldset>
        <FormFields
          fields={[
            {
              kind: "input",
              name: "coins",
              id: "top-up-coins",
              label: t("topUps.otherAmount"),
              hint: method
                ? t("topUps.bounds", { min: method.minCoins, max: method.maxCoins })
                : undefined,
              inputMode: "numeric",
              pattern: "[0-9]*",
              dir: "ltr",
              className: "max-w-40",
              value: coins,
              onChange: (event) => chooseCoins(event.target.value),
            },
          ]}
          errors={error?.fieldErrors}
          errorValues={error?.params}
        />
        <fieldset className="grid gap-2" {...fieldAria("top-up-method", methodError)}>
          <legend className="mb-2 text-sm font-medium">{t("topUps.method")}</legend>
          {methods.map((each) => (
            <label
              key={each.id}
              className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md border p-3 has-checked:border-primary"
            >
              <input
                type="radio"
                name="methodId"
                value={each.id}
                checked={each.id === methodId}
                onChange={() => {
                  setMethodId(each.id);
                  if (!ownAmount) setCoins(startFor(each));
                }}
                className="mt-1"
              />
              <span className="grid gap-1">
                <span className="font-medium">{each.name}</span>
                <span className="text-sm text-muted-foreground">
                  {t("topUps.perCoin", {
                    price: formatMethodAmount(each.rate, each.currency, locale),
                  })}
                </span>
              </span>
            </label>
          ))}
          {methodError ? (
            <p id="top-up-method-error" className="text-sm text-destructive" role="alert">
              {message(methodError)}
            </p>
          ) : null}
        </fieldset>
        {quoted?.ok ? (
          <p
            className="rounded-md bg-muted p-3 text-lg font-semibold"
            aria-live="polite"
            data-quote
          >
            {t("topUps.youSend", {
              total: formatMethodAmount(quoted.quote.total, quoted.quote.currency, locale),
            })}
            {quoted.quote.fee > 0 ? (
              <span className="block text-sm font-normal text-muted-foreground">
                {t("topUps.breakdown", {
                  amount: formatMethodAmount(quoted.quote.amount, quoted.quote.currency, locale),
                  fee: formatMethodAmount(quoted.quote.fee, quoted.quote.currency, locale),
                })}
              </span>
            ) : null}
          </p>
        ) : null}
        {online ? (
          <p className="text-sm text-muted-foreground" data-testid="pay-online-help">
            {t("topUps.payOnlineHelp", { method: method.name })}
          </p>
        ) : null}
        <Button type="submit" disabled={busy} className="justify-self-start">
          {online ? t("topUps.payOnline") : t("topUps.submit")}
        </Button>
      </Form>
    </TitledCard>
  );
}
