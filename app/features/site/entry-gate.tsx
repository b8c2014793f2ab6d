import { useEffect, useRef, useState, type FormEvent, type Ref } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "~/i18n/use-translation";
import { useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { placeholder } from "~/lib/placeholders";
import {
  ENTRY_GATE,
  startEntryGate,
  type EntryGate as Gate,
  type GateState,
} from "./entry-gate-flow";

/**
 * Spec section 4, drawn by the browser over the server-rendered home page (crawlers and link previews read
 * the real page). The steps are in entry-gate-flow.ts; this is the hydrated page's view of them (a
 * signed-in visitor). Everyone else gets EntryGateTemplate, which the enhance script draws.
 */
export function EntryGate() {
  const navigate = useNavigate();
  const [state, setState] = useState<GateState>({ stage: "hidden" });
  const gate = useRef<Gate | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const overlay = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const started = startEntryGate({
      storage: () => sessionStorage,
      navigator,
      go: (path) => void navigate(path, { replace: true }),
      render: setState,
    });
    gate.current = started;
    return started.stop;
  }, [navigate]);

  const quiz = state.stage === "quiz" ? state : null;
  useEffect(() => {
    if (quiz) input.current?.focus();
    else if (state.stage === "checking") overlay.current?.focus();
  }, [state.stage, quiz]);

  // While the gate is up the page under it is inert: the keyboard cannot reach its links and screen
  // readers do not read it (the overlay sits directly in <body>, so everything else can be marked).
  const up = state.stage !== "hidden";
  useEffect(() => {
    if (!up) return;
    const others = [...document.body.children].filter(
      (el): el is HTMLElement => el instanceof HTMLElement && el !== overlay.current && !el.inert,
    );
    for (const el of others) el.inert = true;
    return () => {
      for (const el of others) el.inert = false;
    };
  }, [up]);

  // Only ever shown after hydration (the state starts hidden), so the portal never meets server HTML.
  if (!up) return null;
  return createPortal(
    <GateDialog
      state={state}
      overlayRef={overlay}
      inputRef={input}
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        if (!gate.current?.answer(new FormData(form).get("answer"))) form.reset();
      }}
    />,
    document.body,
  );
}

/**
 * The gate for a page served without React: the dialog with the catalogue's texts and their {{seconds}},
 * {{a}} and {{b}} left in, for entry-gate-view.ts (run by the enhance script) to copy into the page and
 * fill. A <template>'s content is not part of the page, so nothing of it shows or is read before then.
 */
export function EntryGateTemplate() {
  return (
    <template data-entry-gate="">
      <GateDialog
        state={{ stage: "checking", seconds: ENTRY_GATE.checkSeconds }}
        values={{ seconds: placeholder("seconds"), a: placeholder("a"), b: placeholder("b") }}
      />
    </template>
  );
}

/**
 * The dialog with one part per stage, all but the current one hidden. Elements marked data-fill hold a
 * text whose placeholders the enhance script fills.
 */
function GateDialog({
  state,
  values,
  overlayRef,
  inputRef,
  onSubmit,
}: {
  state: GateState;
  /** Placeholders instead of the state's numbers, for the template. */
  values?: { seconds: string; a: string; b: string };
  overlayRef?: Ref<HTMLDivElement>;
  inputRef?: Ref<HTMLInputElement>;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const { t } = useTranslation("site");
  const seconds = values?.seconds ?? (state.stage === "checking" ? state.seconds : 0);
  const a = values?.a ?? (state.stage === "quiz" ? state.a : 0);
  const b = values?.b ?? (state.stage === "quiz" ? state.b : 0);
  const wrong = state.stage === "quiz" && state.wrong;
  return (
    <div
      ref={overlayRef}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-labelledby={`gate-title-${state.stage}`}
      className="fixed inset-0 z-[60] flex items-center justify-center bg-secondary/95 p-4 text-white outline-none"
    >
      <div className="w-full max-w-sm rounded-xl bg-background p-6 text-foreground shadow-xl">
        <div
          data-gate-stage="checking"
          hidden={state.stage !== "checking"}
          className="grid gap-2 text-center"
          aria-live="polite"
        >
          <h2 id="gate-title-checking" className="text-lg font-semibold">
            {t("gate.checking")}
          </h2>
          <p className="text-sm text-muted-foreground" data-fill="">
            {t("gate.countdown", { seconds })}
          </p>
          <p className="text-4xl font-bold" data-testid="gate-countdown" data-fill="">
            {seconds}
          </p>
        </div>
        <p
          data-gate-stage="loading"
          hidden={state.stage !== "loading"}
          id="gate-title-loading"
          className="text-center"
          aria-live="polite"
        >
          {t("gate.loading")}
        </p>
        <form
          data-gate-stage="quiz"
          hidden={state.stage !== "quiz"}
          className="grid gap-3"
          onSubmit={onSubmit}
        >
          <h2 id="gate-title-quiz" className="text-lg font-semibold">
            {t("gate.quizTitle")}
          </h2>
          <Label htmlFor="gate-answer" data-fill="">
            {t("gate.quizQuestion", { a, b })}
          </Label>
          <Input
            ref={inputRef}
            id="gate-answer"
            name="answer"
            inputMode="numeric"
            autoComplete="off"
            required
            aria-describedby={wrong ? "gate-wrong" : undefined}
          />
          <p id="gate-wrong" role="alert" hidden={!wrong} className="text-sm text-destructive">
            {t("gate.wrong")}
          </p>
          <Button type="submit">{t("gate.submit")}</Button>
        </form>
      </div>
    </div>
  );
}
