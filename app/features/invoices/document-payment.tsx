import type { DocumentView } from "~/domain/invoices/invoices";

/**
 * A top-up's receipt: how the money came (the amount in the method's currency, the method, the reference,
 * who paid and when) and the coins it bought, a label above its value on a phone, beside it from `sm`.
 */
export function PaymentDetails({ payment }: { payment: NonNullable<DocumentView["payment"]> }) {
  return (
    <section aria-labelledby="document-payment" className="grid gap-2 text-sm">
      <h2 id="document-payment" className="text-xs font-semibold text-muted-foreground uppercase">
        {payment.heading}
      </h2>
      <dl className="grid gap-2 sm:gap-1" data-testid="document-payment">
        {payment.rows.map((row) => (
          <div key={row.label} className="grid sm:grid-cols-[16rem_1fr] sm:gap-4">
            <dt className="text-muted-foreground">{row.label}</dt>
            <dd dir="auto" className="wrap-anywhere">
              {row.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
