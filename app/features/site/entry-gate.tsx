import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "~/i18n/use-translation";
import { useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { looksHeadless, newQuiz } from "~/domain/site/site";

const PASSED_KEY = "hostfront_gate_passed";
const CHECK_SECONDS = 5;

/**
 * Spec section 4: drawn by the browser over the server-rendered home page (crawlers and link previews
 * read the real page). Counts down 5 s; an automated browser goes to /bot-detected, a thrown error to
 * /verification-failed; otherwise a multiplication quiz. Passed once per browser session.
 */
export function EntryGate() {
  const { t } = useTranslation("site");
  const navigate = useNavigate();
  const [stage, setStage] = useState<"hidden" | "checking" | "quiz" | "loading">("hidden");
  const [seconds, setSeconds] = useState(CHECK_SECONDS);
  const [quiz, setQuiz] = useState(() => ({ a: 0, b: 0, answer: 0 }));
  const [wrong, setWrong] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const overlay = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let left = CHECK_SECONDS;
    let timer: ReturnType<typeof setInterval> | undefined;
    const fail = () => void navigate("/verification-failed", { replace: true });
    const start = setTimeout(() => {
      try {
        if (sessionStorage.getItem(PASSED_KEY) === "1") return;
        setStage("checking");
        timer = setInterval(() => {
          try {
            left -= 1;
            setSeconds(left);
            if (left > 0) return;
            clearInterval(timer);
            if (looksHeadless(navigator)) {
              void navigate("/bot-detected", { replace: true });
              return;
            }
            setQuiz(newQuiz());
            setStage("quiz");
          } catch {
            clearInterval(timer);
            fail();
          }
        }, 1000);
      } catch {
        fail();
      }
    }, 0);
    return () => {
      clearTimeout(start);
      clearInterval(timer);
    };
  }, [navigate]);

  useEffect(() => {
    if (stage === "quiz") input.current?.focus();
    else if (stage === "checking") overlay.current?.focus();
  }, [stage, quiz]);

  // While the gate is up the page under it is inert: the keyboard cannot reach its links and screen
  // readers do not read it (the overlay sits directly in <body>, so everything else can be marked).
  useEffect(() => {
    if (stage === "hidden") return;
    const others = [...document.body.children].filter(
      (el): el is HTMLElement => el instanceof HTMLElement && el !== overlay.current && !el.inert,
    );
    for (const el of others) el.inert = true;
    return () => {
      for (const el of others) el.inert = false;
    };
  }, [stage]);

  // Only ever shown after hydration (stage starts hidden), so the portal never meets server HTML.
  if (stage === "hidden") return null;
  return createPortal(
    <div
      ref={overlay}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-labelledby="gate-title"
      className="fixed inset-0 z-[60] flex items-center justify-center bg-secondary/95 p-4 text-white outline-none"
    >
      <div className="w-full max-w-sm rounded-xl bg-background p-6 text-foreground shadow-xl">
        {stage === "checking" ? (
          <div className="grid gap-2 text-center" aria-live="polite">
            <h2 id="gate-title" className="text-lg font-semibold">
              {t("gate.checking")}
            </h2>
            <p className="text-sm text-muted-foreground">{t("gate.countdown", { seconds })}</p>
            <p className="text-4xl font-bold" data-testid="gate-countdown">
              {seconds}
            </p>
          </div>
        ) : stage === "loading" ? (
          <p id="gate-title" className="text-center" aria-live="polite">
            {t("gate.loading")}
          </p>
        ) : (
          <form
            className="grid gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              const value = Number(new FormData(event.currentTarget).get("answer"));
              if (value === quiz.answer) {
                setStage("loading");
                sessionStorage.setItem(PASSED_KEY, "1");
                setTimeout(() => setStage("hidden"), 300);
              } else {
                setWrong(true);
                setQuiz(newQuiz());
                event.currentTarget.reset();
              }
            }}
          >
            <h2 id="gate-title" className="text-lg font-semibold">
              {t("gate.quizTitle")}
            </h2>
            <Label htmlFor="gate-answer">{t("gate.quizQuestion", { a: quiz.a, b: quiz.b })}</Label>
            <Input
              ref={input}
              id="gate-answer"
              name="answer"
              inputMode="numeric"
              autoComplete="off"
              required
              aria-describedby={wrong ? "gate-wrong" : undefined}
            />
            {wrong ? (
              <p id="gate-wrong" role="alert" className="text-sm text-destructive">
                {t("gate.wrong")}
              </p>
            ) : null}
            <Button type="submit">{t("gate.submit")}</Button>
          </form>
        )}
      </div>
    </div>,
    document.body,
  );
}
