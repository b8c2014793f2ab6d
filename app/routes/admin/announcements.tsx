import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { TitledCard } from "~/components/ui/card";
import { Fieldset, typedIn } from "~/components/ui/fieldset";
import { choicesOf, FormFields } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import {
  ANNOUNCEMENT_TEXT_LOCALES,
  ANNOUNCEMENT_TYPE_LABELS,
  ANNOUNCEMENT_TYPES,
  AUDIENCE_LABELS,
  AUDIENCES,
  type Announcement,
  type AnnouncementTextLocale,
} from "~/domain/announcements/announcements";
import { announcementActionSchema } from "~/domain/announcements/announcements.schemas";
import {
  listAllAnnouncements,
  saveAnnouncement,
} from "~/domain/announcements/announcements.server";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { localeFieldNames } from "~/lib/locale-fields";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/announcements";
import { requestContext } from "~/context.server";
import { useBusy } from "~/components/ui/use-busy";

export const loader = adminLoader(requestContext, {
  title: "announcements.admin.title",
  permission: "announcements.manage",
  load: async ({ db }) => ({ announcements: await listAllAnnouncements(db) }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "announcements.manage",
  announcementActionSchema,
  "announcements.errors.notFound",
  async ({ db, admin, input }) => {
    const result = await saveAnnouncement(db, { actorId: admin.id, ...input });
    if (!result.ok) return refusal(result);
    return { ok: true, message: result.message };
  },
);

/** Catalogue keys (announcements namespace) of each language's fields, written out for the catalogue test. */
const TEXT_LABELS = {
  fr: {
    legend: "admin.texts.fr.legend",
    title: "admin.texts.fr.title",
    content: "admin.texts.fr.content",
  },
  ar: {
    legend: "admin.texts.ar.legend",
    title: "admin.texts.ar.title",
    content: "admin.texts.ar.content",
  },
} as const satisfies Record<AnnouncementTextLocale, object>;
const TITLE_FIELDS = localeFieldNames("title", ANNOUNCEMENT_TEXT_LOCALES);
const CONTENT_FIELDS = localeFieldNames("content", ANNOUNCEMENT_TEXT_LOCALES);

/**
 * One language's title and content, after the English ones: optional, typed in that language (lang, and
 * dir="rtl" for Arabic), each falling back to the English field when left empty (ADR 21).
 */
function TranslatedFields({
  value,
  idPrefix,
  language,
}: {
  value?: Announcement;
  idPrefix: string;
  language: AnnouncementTextLocale;
}) {
  const { t } = useTranslation("announcements");
  const labels = TEXT_LABELS[language];
  return (
    <Fieldset legend={t(labels.legend)}>
      <FormFields
        idPrefix={idPrefix}
        fields={[
          {
            kind: "input",
            name: TITLE_FIELDS[language],
            label: t(labels.title),
            hint: t("admin.texts.hints.title"),
            maxLength: 150,
            ...typedIn(language),
            defaultValue: value?.translations[language].title,
          },
          {
            kind: "textarea",
            name: CONTENT_FIELDS[language],
            label: t(labels.content),
            hint: t("admin.texts.hints.content"),
            rows: 3,
            maxLength: 5000,
            ...typedIn(language),
            defaultValue: value?.translations[language].content,
            variant: "plain",
          },
        ]}
      />
    </Fieldset>
  );
}

function AnnouncementFields({ value, idPrefix }: { value?: Announcement; idPrefix: string }) {
  const { t } = useTranslation("announcements");
  return (
    <>
      <EnglishFields value={value} idPrefix={idPrefix} />
      <p className="text-sm text-muted-foreground">{t("admin.texts.intro")}</p>
      {ANNOUNCEMENT_TEXT_LOCALES.map((language) => (
        <TranslatedFields key={language} value={value} idPrefix={idPrefix} language={language} />
      ))}
    </>
  );
}

function EnglishFields({ value, idPrefix }: { value?: Announcement; idPrefix: string }) {
  const { t } = useTranslation("announcements");
  return (
    <FormFields
      idPrefix={idPrefix}
      fields={[
        {
          kind: "input",
          name: "title",
          label: t("admin.titleField"),
          required: true,
          maxLength: 150,
          dir: "auto",
          defaultValue: value?.title,
        },
        {
          kind: "textarea",
          name: "content",
          label: t("admin.content"),
          required: true,
          rows: 3,
          maxLength: 5000,
          dir: "auto",
          defaultValue: value?.content,
          variant: "plain",
        },
        {
          kind: "row",
          className: "grid gap-3 sm:grid-cols-3",
          fields: [
            {
              kind: "select",
              name: "type",
              label: t("admin.type"),
              variant: "form",
              defaultValue: value?.type ?? "info",
              options: choicesOf(ANNOUNCEMENT_TYPES, (type) => t(ANNOUNCEMENT_TYPE_LABELS[type])),
            },
            {
              kind: "select",
              id: `${idPrefix}-audience`,
              name: "targetAudience",
              label: t("admin.audience"),
              variant: "form",
              defaultValue: value?.targetAudience ?? "all",
              options: choicesOf(AUDIENCES, (audience) => t(AUDIENCE_LABELS[audience])),
            },
            {
              kind: "custom",
              key: "isActive",
              content: (
                <label className="flex items-center gap-2 self-end text-sm">
                  <input type="checkbox" name="isActive" defaultChecked={value?.isActive ?? true} />{" "}
                  {t("admin.active")}
                </label>
              ),
            },
          ],
        },
      ]}
    />
  );
}

export default function AdminAnnouncements({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("announcements");
  const busy = useBusy();
  return (
    <main className="grid gap-6">
      <h1 className="text-2xl font-bold">{t("admin.title")}</h1>
      {actionData ? <ResultMessage result={actionData} /> : null}
      <TitledCard title={t("admin.create")}>
        <Form method="post" className="grid gap-3">
          <input type="hidden" name="intent" value="create" />
          <AnnouncementFields idPrefix="new" />
          <Button type="submit" disabled={busy} className="w-fit">
            {t("admin.save")}
          </Button>
        </Form>
      </TitledCard>
      {loaderData.announcements.length === 0 ? (
        <p className="text-muted-foreground">{t("admin.empty")}</p>
      ) : null}
      <ul className="grid gap-3">
        {loaderData.announcements.map((a) => (
          <li key={a.id} className="rounded-lg border bg-background p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-semibold" dir="auto">
                {a.title}
              </p>
              <div className="flex gap-2">
                <Badge tone={a.isActive ? "green" : "grey"}>
                  {a.isActive ? t("admin.active") : t("admin.inactive")}
                </Badge>
                <Badge>{t(AUDIENCE_LABELS[a.targetAudience])}</Badge>
              </div>
            </div>
            <p className="mt-1 text-sm whitespace-pre-wrap wrap-anywhere" dir="auto">
              {a.content}
            </p>
            <details className="mt-3">
              <summary className="cursor-pointer text-sm text-primary">{t("admin.edit")}</summary>
              <Form method="post" className="mt-3 grid gap-3">
                <input type="hidden" name="intent" value="update" />
                <input type="hidden" name="id" value={a.id} />
                <AnnouncementFields value={a} idPrefix={`a${a.id}`} />
                <Button type="submit" size="sm" disabled={busy} className="w-fit">
                  {t("admin.save")}
                </Button>
              </Form>
            </details>
            <div className="mt-3 flex gap-2">
              <IntentButton
                intent={a.isActive ? "deactivate" : "activate"}
                fields={{ id: a.id }}
                variant="outline"
              >
                {a.isActive ? t("admin.deactivate") : t("admin.activate")}
              </IntentButton>
              <IntentButton
                intent="delete"
                fields={{ id: a.id }}
                confirmText={t("admin.confirmDelete")}
                variant="ghost"
              >
                {t("admin.delete")}
              </IntentButton>
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}
