import { useTranslation } from "~/i18n/use-translation";
import { EditorFields, type EditorFormState } from "~/components/list-editor/editor-page";
import { Hint } from "~/components/ui/field";
import type { FieldSpec } from "~/components/ui/form-card";
import type { ProductType } from "~/domain/catalogue/catalogue";
import type { ProductChoice } from "~/domain/catalogue/catalogue-admin";
import { changeToFieldName } from "~/domain/catalogue/plan-paths";

/**
 * The product editor's "Customers may change to": a checkbox for each other product of the product's
 * type (hidden ones marked so), ticked for the plans its services may move to now (docs/self-service.md).
 * Each box is its own field (`changeTo-<id>`); the save reads them as one list.
 */
export function PlanPathsFields({
  form,
  productId,
  type,
  choices,
}: {
  form: EditorFormState;
  /** The product being edited (none for a new one). */
  productId: number | undefined;
  /** Its type as stored: a change of type in the same save refuses the boxes of the old one. */
  type: ProductType;
  choices: readonly ProductChoice[];
}) {
  const { t } = useTranslation("admin-catalogue");
  const id = form.id("changeTo");
  const error = form.error("changeTo");
  const others = choices.filter((choice) => choice.type === type && choice.id !== productId);
  const boxes: FieldSpec[] = others.map((choice) => ({
    kind: "switch",
    name: changeToFieldName(choice.id),
    label:
      choice.status === "hidden"
        ? t("products.planPaths.hiddenPlan", { name: choice.name })
        : choice.name,
  }));
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
      data-testid="plan-paths"
    >
      <legend className="text-sm font-medium">{t("products.planPaths.legend")}</legend>
      {/* Sent with the boxes: none ticked is no path, not "left as it was" (withChangeToList). */}
      <input type="hidden" name="changeTo" value="" />
      <Hint id={`${id}-hint`}>{t("products.planPaths.hint")}</Hint>
      {boxes.length > 0 ? (
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          <EditorFields editor={form} fields={boxes} />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{t("products.planPaths.none")}</p>
      )}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
