import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";

export function NotFoundContent() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-6xl font-extrabold text-primary">{t("notFound.code")}</p>
      <h1 className="text-2xl font-bold">{t("notFound.title")}</h1>
      <p className="text-muted-foreground">{t("notFound.text")}</p>
      <Button asChild>
        <Link to="/">{t("notFound.home")}</Link>
      </Button>
    </main>
  );
}
