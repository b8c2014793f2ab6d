import { smtpServerLabel } from "~/domain/mail/mail";
import { mailListQuerySchema } from "~/domain/mail/mail.schemas";
import { listOutbox } from "~/domain/mail/outbox-list.server";
import { MailOutboxPage } from "~/features/admin-mail/mail-outbox-page";
import { mailSubjectWriter, mailWriter } from "~/features/mail/mail-writer";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/mail";

// The outbox (docs/mail.md): every message the site sent or keeps, with its state; one read in full.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.mail",
  permission: "mail.view",
  query: mailListQuerySchema,
  load: async ({ db, query, context: { services } }) => {
    // Messages kept without SMTP_URL are written when read (docs/mail.md): the templates, as the job's.
    const writing = {
      settings: () => services.settings.get(),
      publicUrl: services.env.PUBLIC_URL,
      i18n: sharedI18n,
    };
    const list = await listOutbox(db, query, {
      write: mailWriter(writing),
      subject: mailSubjectWriter(writing),
    });
    const smtpUrl = services.env.SMTP_URL;
    return { ...list, smtpServer: smtpUrl ? smtpServerLabel(smtpUrl) : null };
  },
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminMail({ loaderData }: Route.ComponentProps) {
  return <MailOutboxPage {...loaderData} />;
}
