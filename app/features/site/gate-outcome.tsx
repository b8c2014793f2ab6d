import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";

// Written out so the catalogue test can see every key in use.
const texts = {
  botDetected: { title: "botDetected.title", text: "botDetected.text", retry: "botDetected.retry" },
  verificationFailed: {
    title: "verificationFailed.title",
    text: "verificationFailed.text",
    retry: "verificationFailed.retry",
  },
} as const;

/** /bot-detected and /verification-failed: what happened at the entry gate, and a way to try again. */
export function GateOutcome({ page }: { page: keyof typeof texts }) {
  const { t } = useTranslation("site");
  const keys = texts[page];
  return (
    <main className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{t(keys.title)}</h1>
      <p className="text-muted-foreground">{t(keys.text)}</p>
      <Button asChild>
        <Link to="/" reloadDocument>
          {t(keys.retry)}
        </Link>
      </Button>
    </main>
  );
}
