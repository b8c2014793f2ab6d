import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { useBusy } from "~/components/ui/use-busy";
import {
  SERVER_REFUSAL_LABELS,
  type ServerRefusal,
  type ServerVariable,
} from "~/domain/servers/server-control";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { AnswerMessage } from "./server-answer-message";
import type { ServerAnswer } from "./server-answers";

// The game's settings the panel lets its user see (the egg's variables): each one the user may edit is a
// small form of its own (its value and Save), the others are shown as they are. They apply at the next
// start, which the section says.

function EditableVariable({
  variable,
  pagePath,
  disabled,
  describedBy,
  answer,
}: {
  variable: ServerVariable;
  pagePath: string;
  disabled: boolean;
  describedBy?: string;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  const message = useMessage();
  const busy = useBusy();
  const id = `server-variable-${variable.env}`;
  const mine = answer?.form === "variable" && answer.env === variable.env ? answer : undefined;
  const errorKey = mine && !mine.ok ? (mine.fieldErrors?.value ?? mine.message) : undefined;
  const error = errorKey ? message(errorKey) : undefined;
  // After a refusal the field shows what was typed; otherwise the server's value.
  const value = mine && !mine.ok ? (mine.values?.value ?? variable.value) : variable.value;
  const aria = fieldAria(id, error, { hint: Boolean(variable.description) });
  return (
    <li>
      <Form method="post" action={pagePath} className="grid gap-2" noValidate>
        <input type="hidden" name="intent" value="variable" />
        <input type="hidden" name="env" value={variable.env} />
        <Field
          id={id}
          label={<bdi>{variable.name}</bdi>}
          hint={
            // The panel's own words (in English): their own direction in an Arabic page.
            variable.description ? <bdi>{variable.description}</bdi> : undefined
          }
          error={error}
        >
          <div className="flex flex-wrap items-center gap-2">
            <Input
              key={value}
              id={id}
              name="value"
              defaultValue={value}
              dir="auto"
              className="min-w-0 flex-1 basis-48"
              {...aria}
              aria-describedby={
                [aria["aria-describedby"], describedBy].filter(Boolean).join(" ") || undefined
              }
            />
            <Button
              type="submit"
              size="sm"
              variant="outline"
              disabled={disabled || busy}
              aria-label={t("server.variables.saveLabel", { name: variable.name })}
            >
              {t("server.variables.save")}
            </Button>
          </div>
        </Field>
        {mine?.ok ? <AnswerMessage answer={mine} /> : null}
      </Form>
    </li>
  );
}

export function ServerVariables({
  variables,
  pagePath,
  refusal,
  answer,
}: {
  variables: ServerVariable[];
  pagePath: string;
  refusal: ServerRefusal | null;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  const editable = variables.filter((variable) => variable.editable);
  const readOnly = variables.filter((variable) => !variable.editable);
  const describedBy = refusal ? "server-variables-refusal" : undefined;
  // A variable's answer whose variable is no longer listed is said above the list.
  const orphan =
    answer?.form === "variable" && !editable.some((variable) => variable.env === answer.env)
      ? answer
      : undefined;
  return (
    <TitledCard
      title={t("server.variables.title")}
      empty={variables.length === 0 ? t("server.variables.empty") : undefined}
      contentClassName="grid gap-4"
    >
      <p className="text-sm text-muted-foreground">{t("server.variables.intro")}</p>
      {refusal ? (
        <p id="server-variables-refusal" className="text-sm text-red-700">
          {t(SERVER_REFUSAL_LABELS[refusal])}
        </p>
      ) : null}
      {orphan ? <AnswerMessage answer={orphan} /> : null}
      {editable.length > 0 ? (
        <ul className="grid gap-4" data-testid="server-variables">
          {editable.map((variable) => (
            <EditableVariable
              key={variable.env}
              variable={variable}
              pagePath={pagePath}
              disabled={refusal !== null}
              describedBy={describedBy}
              answer={answer}
            />
          ))}
        </ul>
      ) : null}
      {readOnly.length > 0 ? (
        <dl className="grid gap-3 text-sm" data-testid="server-variables-read-only">
          {readOnly.map((variable) => (
            <div key={variable.env} className="grid gap-0.5">
              <dt className="font-medium">
                <bdi>{variable.name}</bdi>{" "}
                <span className="font-normal text-muted-foreground">
                  ({t("server.variables.readOnly")})
                </span>
              </dt>
              <dd dir="auto" className="user-text wrap-anywhere">
                {variable.value}
              </dd>
              {variable.description ? (
                <dd dir="auto" className="text-muted-foreground">
                  {variable.description}
                </dd>
              ) : null}
            </div>
          ))}
        </dl>
      ) : null}
    </TitledCard>
  );
}
