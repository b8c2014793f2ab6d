import { useState, type ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogFormButtons, DialogPanel } from "~/components/ui/dialog";
import { Link } from "~/components/ui/link";
import { useBusy } from "~/components/ui/use-busy";
import { SERVER_REFUSAL_LABELS, type ServerRefusal } from "~/domain/servers/server-control";
import { useTranslation } from "~/i18n/use-translation";

// What cuts the players off or wipes the files asks first: stop, kill and reinstall. Once React runs, the
// button opens the kit's dialog; without scripts it is a link to the page's confirmation step
// (`?confirm=stop`), which the server renders with the same question and form (as a renewal's is).

export const CONFIRMED = ["stop", "kill", "reinstall"] as const;
export type Confirmed = (typeof CONFIRMED)[number];

/** Each confirmation's words (services namespace) and what its form posts. */
const CONFIRMATIONS = {
  stop: {
    title: "server.confirm.stopTitle",
    text: "server.confirm.stopText",
    submit: "server.confirm.stopSubmit",
    fields: { intent: "power", signal: "stop" },
  },
  kill: {
    title: "server.confirm.killTitle",
    text: "server.confirm.killText",
    submit: "server.confirm.killSubmit",
    fields: { intent: "power", signal: "kill" },
  },
  reinstall: {
    title: "server.confirm.reinstallTitle",
    text: "server.confirm.reinstallText",
    submit: "server.confirm.reinstallSubmit",
    // What the reinstall's form must carry: its confirmation, ticked.
    fields: { intent: "reinstall", confirm: "on" },
  },
} as const;

/** Which confirmation an address asks for (`?confirm=`), if any. */
export function confirmationOf(search: URLSearchParams): Confirmed | null {
  const asked = search.get("confirm");
  return (CONFIRMED as readonly (string | null)[]).includes(asked) ? (asked as Confirmed) : null;
}

/** The address of a confirmation's step: the page with `?confirm=`, scrolled to the step. */
export function confirmationPath(pagePath: string, kind: Confirmed): string {
  return `${pagePath}?confirm=${kind}#server-confirm`;
}

function HiddenFields({ kind }: { kind: Confirmed }) {
  return Object.entries(CONFIRMATIONS[kind].fields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
}

/**
 * A button that asks first: a link to the confirmation step, which opens the dialog instead once React
 * runs. Disabled (a plain button) while the server refuses it or a form is being sent.
 */
export function ConfirmButton({
  kind,
  pagePath,
  serverName,
  disabled,
  describedBy,
  variant = "outline",
  children,
}: {
  kind: Confirmed;
  pagePath: string;
  serverName: string;
  disabled: boolean;
  describedBy?: string;
  variant?: "outline" | "destructive";
  children: ReactNode;
}) {
  const { t } = useTranslation("services");
  const [open, setOpen] = useState(false);
  const busy = useBusy();
  const words = CONFIRMATIONS[kind];
  if (disabled || busy)
    return (
      <Button type="button" size="sm" variant={variant} disabled aria-describedby={describedBy}>
        {children}
      </Button>
    );
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button asChild size="sm" variant={variant}>
        <Link
          to={confirmationPath(pagePath, kind)}
          aria-haspopup="dialog"
          aria-describedby={describedBy}
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
        >
          {children}
        </Link>
      </Button>
      <DialogPanel
        closeLabel={t("server.confirm.close")}
        role="alertdialog"
        title={t(words.title, { server: serverName })}
        description={t(words.text)}
      >
        <Form
          method="post"
          action={pagePath}
          className="flex flex-wrap justify-end gap-2"
          onSubmit={() => setOpen(false)}
        >
          <HiddenFields kind={kind} />
          <DialogFormButtons
            cancel={t("server.confirm.cancel")}
            submit={t(words.submit)}
            variant="destructive"
            busy={busy}
          />
        </Form>
      </DialogPanel>
    </Dialog>
  );
}

/**
 * The confirmation as a step of the page (the address `?confirm=…`, what the button leads to without
 * scripts): the question, then the confirming form and the way back; the server's refusal instead of
 * the form while it refuses.
 */
export function ConfirmStep({
  kind,
  pagePath,
  serverName,
  refusal,
}: {
  kind: Confirmed;
  pagePath: string;
  serverName: string;
  refusal: ServerRefusal | null;
}) {
  const { t } = useTranslation("services");
  const busy = useBusy();
  const words = CONFIRMATIONS[kind];
  return (
    <section
      id="server-confirm"
      aria-labelledby="server-confirm-title"
      className="grid gap-3 rounded-xl border-2 border-destructive bg-background p-6 shadow-sm"
    >
      <h2 id="server-confirm-title" className="text-lg font-semibold wrap-anywhere">
        {t(words.title, { server: serverName })}
      </h2>
      <p className="text-sm">{t(words.text)}</p>
      {refusal ? <p className="text-sm text-red-700">{t(SERVER_REFUSAL_LABELS[refusal])}</p> : null}
      <div className="flex flex-wrap gap-2">
        {refusal ? null : (
          <Form method="post" action={pagePath}>
            <HiddenFields kind={kind} />
            <Button type="submit" variant="destructive" disabled={busy}>
              {t(words.submit)}
            </Button>
          </Form>
        )}
        <Button asChild variant="outline">
          <Link to={pagePath}>{t("server.confirm.cancel")}</Link>
        </Button>
      </div>
    </section>
  );
}
