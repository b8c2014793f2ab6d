import type { TFunction } from "i18next";
import { PencilIcon, PlusIcon } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { DialogFormButtons, DialogShell } from "~/components/ui/dialog";
import { FormFields, type FieldSpec } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import {
  BODY_FIELDS,
  BODY_LABELS,
  KB_LOCALES,
  KB_STATUS_LABELS,
  KB_STATUSES,
  MAX_KB_BODY_LENGTH,
  MAX_KB_NAME_LENGTH,
  MAX_KB_SLUG_LENGTH,
  MAX_KB_TITLE_LENGTH,
  NAME_FIELDS,
  NAME_LABELS,
  TITLE_FIELDS,
  TITLE_LABELS,
  type KbLocale,
} from "~/domain/knowledgebase/knowledgebase";
import { DEPARTMENT_LABELS, DEPARTMENTS } from "~/domain/tickets/tickets";
import { useTranslation } from "~/i18n/use-translation";
import type { KbActionResult, KbArticle, KbCategory, KbIntent } from "./kb-admin-shared";

/**
 * A dialog whose form posts about one row (or none: an add form): it closes when its action succeeds
 * (the page then says what was done) and shows a refusal inside while it stays open, with what was
 * typed. A result from before it was opened, or about another row, is not shown in it.
 */
function useEditorDialog(result: KbActionResult | undefined, intent: KbIntent, id?: number) {
  const [open, setOpen] = useState(false);
  const [handled, setHandled] = useState(result);
  const [dismissed, setDismissed] = useState(result);
  const mine = result?.intent === intent && (id === undefined || result.id === id);
  if (result !== handled) {
    setHandled(result);
    if (result?.ok && mine) setOpen(false);
    // A refusal of this form after a reload without scripts opens it again, as it was typed.
    if (result && !result.ok && mine) setOpen(true);
  }
  const refusal = result && !result.ok && mine && result !== dismissed ? result : undefined;
  const onOpenChange = (next: boolean) => {
    setDismissed(result);
    setOpen(next);
  };
  return { open, onOpenChange, refusal };
}

type KbT = TFunction<"knowledgebase">;

/** A text per language: English required, the others optional. */
function localeFields(
  names: Readonly<Record<KbLocale, string>>,
  labels: typeof NAME_LABELS | typeof TITLE_LABELS | typeof BODY_LABELS,
  spec:
    { kind: "input"; maxLength: number } | { kind: "textarea"; maxLength: number; hint: string },
  t: KbT,
): FieldSpec[] {
  return KB_LOCALES.map((locale): FieldSpec => {
    const common = {
      name: names[locale],
      label: t(labels[locale]),
      maxLength: spec.maxLength,
      lang: locale,
      dir: locale === "ar" ? ("rtl" as const) : ("auto" as const),
      ...(locale === "en" ? { required: true } : {}),
    };
    const need = locale === "en" ? t("admin.fields.requiredHint") : t("admin.fields.optionalHint");
    return spec.kind === "input"
      ? { kind: "input", ...common, hint: need, autoComplete: "off" }
      : {
          kind: "textarea",
          ...common,
          hint: `${need} ${spec.hint}`,
          variant: "validated",
          rows: 8,
        };
  });
}

function slugAndPosition(t: KbT): FieldSpec {
  return {
    kind: "row",
    className: "grid gap-4 sm:grid-cols-2",
    fields: [
      {
        kind: "input",
        name: "slug",
        label: t("admin.fields.slug"),
        hint: t("admin.fields.slugHint"),
        required: true,
        maxLength: MAX_KB_SLUG_LENGTH,
        autoComplete: "off",
        dir: "ltr",
      },
      {
        kind: "input",
        name: "position",
        label: t("admin.fields.position"),
        hint: t("admin.fields.positionHint"),
        inputMode: "numeric",
        maxLength: 4,
        autoComplete: "off",
        dir: "ltr",
      },
    ],
  };
}

function EditorDialog({
  intent,
  id,
  result,
  values,
  fields,
  trigger,
  title,
}: {
  intent: KbIntent;
  id?: number;
  result?: KbActionResult;
  values: Record<string, string>;
  fields: FieldSpec[];
  trigger: React.ReactNode;
  title: string;
}) {
  const { t } = useTranslation("knowledgebase");
  const busy = useBusy();
  const { open, onOpenChange, refusal } = useEditorDialog(result, intent, id);
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      trigger={trigger}
      closeLabel={t("admin.close")}
      title={title}
      description={t("admin.formText")}
    >
      {refusal ? <ResultMessage result={refusal} /> : null}
      <Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value={intent} />
        {id !== undefined ? <input type="hidden" name="id" value={id} /> : null}
        <FormFields
          idPrefix={`kb-${intent}-${id ?? "new"}`}
          errors={refusal?.fieldErrors}
          values={refusal?.values ?? values}
          fields={fields}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <DialogFormButtons
            cancel={t("admin.cancel")}
            submit={id !== undefined ? t("admin.save") : t("admin.create")}
            busy={busy}
          />
        </div>
      </Form>
    </DialogShell>
  );
}

function EditButton({ label }: { label: string }) {
  const { t } = useTranslation("knowledgebase");
  return (
    <Button variant="outline" size="sm" aria-label={label}>
      <PencilIcon aria-hidden />
      {t("admin.edit")}
    </Button>
  );
}

/** "New category" (no `category`) or a category's "Edit". */
export function CategoryEditorDialog({
  category,
  result,
}: {
  category?: KbCategory;
  result?: KbActionResult;
}) {
  const { t } = useTranslation("knowledgebase");
  const { t: tCommon } = useTranslation("common");
  const fields: FieldSpec[] = [
    ...localeFields(NAME_FIELDS, NAME_LABELS, { kind: "input", maxLength: MAX_KB_NAME_LENGTH }, t),
    slugAndPosition(t),
    {
      kind: "select",
      name: "department",
      label: t("admin.fields.department"),
      variant: "validated",
      options: [
        { value: "", label: t("admin.anyDepartment") },
        ...DEPARTMENTS.map((department) => ({
          value: department,
          label: tCommon(DEPARTMENT_LABELS[department]),
        })),
      ],
    },
  ];
  const values: Record<string, string> = category
    ? {
        slug: category.slug,
        position: String(category.position),
        department: category.department ?? "",
        ...Object.fromEntries(KB_LOCALES.map((l) => [NAME_FIELDS[l], category.names[l]])),
      }
    : { position: "0" };
  return (
    <EditorDialog
      intent={category ? "category-update" : "category-create"}
      id={category?.id}
      result={result}
      values={values}
      fields={fields}
      title={
        category ? t("admin.editTitle", { name: category.names.en }) : t("admin.addCategoryTitle")
      }
      trigger={
        category ? (
          <EditButton label={t("admin.editCategoryFor", { name: category.names.en })} />
        ) : (
          <Button variant="outline">
            <PlusIcon aria-hidden />
            {t("admin.addCategory")}
          </Button>
        )
      }
    />
  );
}

/** "New article" (no `article`) or an article's "Edit". */
export function ArticleEditorDialog({
  article,
  categories,
  result,
}: {
  article?: KbArticle;
  categories: KbCategory[];
  result?: KbActionResult;
}) {
  const { t } = useTranslation("knowledgebase");
  const fields: FieldSpec[] = [
    {
      kind: "row",
      className: "grid gap-4 sm:grid-cols-2",
      fields: [
        {
          kind: "select",
          name: "categoryId",
          label: t("admin.fields.category"),
          variant: "validated",
          options: categories.map((category) => ({
            value: String(category.id),
            label: category.names.en,
          })),
        },
        {
          kind: "select",
          name: "status",
          label: t("admin.fields.status"),
          hint: t("admin.fields.statusHint"),
          variant: "validated",
          options: KB_STATUSES.map((status) => ({
            value: status,
            label: t(KB_STATUS_LABELS[status]),
          })),
        },
      ],
    },
    slugAndPosition(t),
    ...localeFields(
      TITLE_FIELDS,
      TITLE_LABELS,
      { kind: "input", maxLength: MAX_KB_TITLE_LENGTH },
      t,
    ),
    ...localeFields(
      BODY_FIELDS,
      BODY_LABELS,
      { kind: "textarea", maxLength: MAX_KB_BODY_LENGTH, hint: t("admin.fields.bodyHint") },
      t,
    ),
  ];
  const values: Record<string, string> = article
    ? {
        categoryId: String(article.categoryId),
        status: article.status,
        slug: article.slug,
        position: String(article.position),
        ...Object.fromEntries(KB_LOCALES.map((l) => [TITLE_FIELDS[l], article.titles[l]])),
        ...Object.fromEntries(KB_LOCALES.map((l) => [BODY_FIELDS[l], article.bodies[l]])),
      }
    : { status: "draft", position: "0", categoryId: String(categories[0]?.id ?? "") };
  return (
    <EditorDialog
      intent={article ? "article-update" : "article-create"}
      id={article?.id}
      result={result}
      values={values}
      fields={fields}
      title={
        article ? t("admin.editTitle", { name: article.titles.en }) : t("admin.addArticleTitle")
      }
      trigger={
        article ? (
          <EditButton label={t("admin.editArticleFor", { name: article.titles.en })} />
        ) : (
          <Button disabled={categories.length === 0}>
            <PlusIcon aria-hidden />
            {t("admin.addArticle")}
          </Button>
        )
      }
    />
  );
}

/** "Delete" a category or an article, after a confirmation. */
export function DeleteDialog({
  intent,
  id,
  name,
}: {
  intent: "category-delete" | "article-delete";
  id: number;
  name: string;
}) {
  const { t } = useTranslation("knowledgebase");
  return (
    <ConfirmDialog
      fields={{ intent, id: String(id) }}
      labels={{
        trigger: t("admin.delete"),
        triggerFor: t("admin.deleteFor", { name }),
        title: t("admin.deleteTitle", { name }),
        text:
          intent === "category-delete"
            ? t("admin.deleteCategoryText")
            : t("admin.deleteArticleText"),
        confirm: t("admin.deleteConfirm"),
        cancel: t("admin.cancel"),
        close: t("admin.close"),
      }}
    />
  );
}
