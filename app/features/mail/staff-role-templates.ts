import { STAFF_ROLES, staffRoleOf } from "~/domain/staff/permissions";
import { labelKeys } from "~/lib/label-keys";
import { formatWhen } from "./mail-format";
import type { MailContent, MailContext } from "./mail-templates";

// The message of a staff change (docs/staff.md): the account made a member of the staff, its role
// changed, or removed from the staff. It goes to the person, in their language, as security mail: the
// change ended their sessions, so it also says why they are asked to sign in again.

/** The roles' names in a message (mail namespace: a message is written in the mail's words only). */
export const MAIL_STAFF_ROLE_LABELS = labelKeys("mail", "roleChanged.roles", STAFF_ROLES);

/** Each change's texts (mail namespace), written out for the catalogue test. */
const TEXTS = {
  added: {
    subject: "roleChanged.addedSubject",
    heading: "roleChanged.addedHeading",
    body: "roleChanged.addedBody",
    button: "roleChanged.openAdmin",
  },
  changed: {
    subject: "roleChanged.changedSubject",
    heading: "roleChanged.changedHeading",
    body: "roleChanged.changedBody",
    button: "roleChanged.openAdmin",
  },
  removed: {
    subject: "roleChanged.removedSubject",
    heading: "roleChanged.removedHeading",
    body: "roleChanged.removedBody",
    button: "roleChanged.openDashboard",
  },
} as const;

type Change = keyof typeof TEXTS;

const changeOf = (value: unknown): Change =>
  value === "added" || value === "removed" ? value : "changed";

/** A staff change's message, from the values the outbox stored (mail-plan.server.ts). */
export function roleChangedContent(
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, baseUrl, siteName: site } = context;
  const change = changeOf(params.change);
  const texts = TEXTS[change];
  const roleName = (value: unknown) => {
    const role = staffRoleOf(value);
    return role ? t(MAIL_STAFF_ROLE_LABELS[role]) : t("roleChanged.noRole");
  };
  const values = {
    site,
    role: roleName(params.to),
    from: roleName(params.from),
    date: formatWhen(params.at, context),
  };
  return {
    subject: t(texts.subject, values),
    heading: t(texts.heading),
    paragraphs: [
      t(texts.body, values),
      t(change === "removed" ? "roleChanged.removedKept" : "roleChanged.signInAgain"),
      t("roleChanged.notYou", { site }),
    ],
    button: {
      label: t(texts.button),
      href: `${baseUrl}${change === "removed" ? "/dashboard" : "/admin"}`,
    },
    audience: "customer",
  };
}
