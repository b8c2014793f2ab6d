import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/** /bot-detected and /verification-failed: what happened at the entry gate, and a way to try again. */
export function GateOutcome({ page }: { page: "botDetected" | "verificationFailed" }) {
  const { t } = useTranslation("site");
  return (
    <main className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{t(`${page}.title`)}</h1>
      <p className="text-muted-foreground">{t(`${page}.text`)}</p>
      <Button asChild>
        <Link to="/" reloadDocument>
          {t(`${page}.retry`)}
        </Link>
      </Button>
    </main>
  );
}
