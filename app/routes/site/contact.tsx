import { MailIcon, MessageCircleIcon, UsersIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { data, Form } from "react-router";
import { Button } from "~/components/ui/button";
import { FormFields } from "~/components/ui/form-card";
import { StatusMessage } from "~/components/ui/status-message";
import { liveChatLinks } from "~/domain/settings/settings";
import { contactSchema } from "~/domain/site/site.schemas";
import { submitContactMessage } from "~/domain/site/site.server";
import { parseForm } from "~/http/form.server";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/contact";
import { requestContext } from "~/context.server";
import { useBusy } from "~/components/ui/use-busy";

export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { general } = context.settings;
  const t = context.i18n.getFixedT(null, "site");
  // WhatsApp and the community chat are live chat: shown only while the admin's switch is on.
  const chat = liveChatLinks(context.settings);
  return {
    meta: { title: t("contact.metaTitle"), description: t("contact.subtitle") },
    contact: { email: general.contactEmail, whatsapp: chat.whatsapp, community: chat.community },
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const form = await parseForm(request, contactSchema);
  if (!form.ok)
    return data(
      { ok: false as const, fieldErrors: form.fieldErrors, values: form.values },
      { status: 400 },
    );
  await submitContactMessage(context.services.db, form.data);
  return { ok: true as const };
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("site");
  const submitting = useBusy();
  const formRef = useRef<HTMLFormElement>(null);
  const sent = actionData?.ok === true;
  // On success the form clears; on a refusal what was typed stays.
  useEffect(() => {
    if (sent) formRef.current?.reset();
  }, [sent, actionData]);
  const errors = actionData && !actionData.ok ? actionData.fieldErrors : {};
  const values = actionData && !actionData.ok ? actionData.values : {};
  const { contact } = loaderData;
  return (
    <main className="mx-auto grid max-w-6xl gap-10 px-4 py-16 lg:grid-cols-[1fr_2fr]">
      <section>
        <h1 className="text-4xl font-extrabold">{t("contact.title")}</h1>
        <p className="mt-3 text-muted-foreground">{t("contact.subtitle")}</p>
        <ul className="mt-6 grid gap-4">
          <li className="flex items-center gap-3">
            <MailIcon className="size-5 text-primary" aria-hidden />
            <span>
              {t("contact.email")}:{" "}
              <a
                href={`mailto:${contact.email}`}
                className="text-primary hover:underline"
                dir="ltr"
              >
                {contact.email}
              </a>
            </span>
          </li>
          {[
            { href: contact.whatsapp, icon: MessageCircleIcon, label: t("contact.whatsapp") },
            { href: contact.community, icon: UsersIcon, label: t("contact.community") },
          ].map(({ href, icon: Icon, label }) =>
            href ? (
              <li key={label} className="flex items-center gap-3">
                <Icon className="size-5 text-primary" aria-hidden />
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-primary hover:underline"
                >
                  {label}
                </a>
              </li>
            ) : null,
          )}
        </ul>
      </section>
      <section className="rounded-xl border p-6">
        <h2 className="text-2xl font-bold">{t("contact.formTitle")}</h2>
        <Form ref={formRef} method="post" className="mt-4 grid gap-4" noValidate>
          {sent ? <StatusMessage ok>{t("contact.sent")}</StatusMessage> : null}
          <FormFields
            idPrefix="contact"
            values={values}
            errors={errors}
            fields={[
              {
                kind: "row",
                className: "grid gap-4 sm:grid-cols-2",
                fields: [
                  {
                    kind: "input",
                    name: "name",
                    label: t("contact.name"),
                    required: true,
                    maxLength: 100,
                    autoComplete: "name",
                  },
                  {
                    kind: "input",
                    name: "email",
                    label: t("contact.emailField"),
                    type: "email",
                    required: true,
                    dir: "ltr",
                    autoComplete: "email",
                  },
                ],
              },
              {
                kind: "input",
                name: "subject",
                label: t("contact.subject"),
                required: true,
                maxLength: 150,
              },
              {
                kind: "textarea",
                name: "message",
                label: t("contact.message"),
                required: true,
                rows: 6,
                maxLength: 5000,
                variant: "plain",
              },
            ]}
          />
          <Button
            type="submit"
            disabled={submitting}
            className="w-fit"
            data-busy-text={t("contact.submitting")}
          >
            {submitting ? t("contact.submitting") : t("contact.submit")}
          </Button>
        </Form>
      </section>
    </main>
  );
}
