import { DownloadIcon } from "lucide-react";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { backupCodesFile, TOTP_ISSUER } from "~/domain/accounts/two-factor";
import { useTranslation } from "~/i18n/use-translation";

/** The name of the downloaded file: the site's, so it is found again among other downloads. */
const FILE_NAME = `${TOTP_ISSUER.toLowerCase()}-backup-codes.txt`;

/** The file's kind, as the button names it (a placeholder: the Arabic text isolates it, keeping it whole). */
const FILE_EXTENSION = ".txt";

/**
 * New backup codes, shown once (two-factor-card.tsx): the list, and ways to keep them that need no
 * retyping: copying them, one a line, and downloading them as a text file. The download is a link to
 * the file's own text, so it works before the page's scripts run.
 */
export function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation("dashboard");
  const file = backupCodesFile(t("twoFactor.fileHeading", { site: TOTP_ISSUER }), codes);
  return (
    <section aria-labelledby="backup-codes-title" className="grid gap-2 rounded-md border p-3">
      <h3 id="backup-codes-title" className="font-semibold">
        {t("twoFactor.backupTitle")}
      </h3>
      <p>{t("twoFactor.backupHint")}</p>
      <ul
        id="backup-codes-list"
        className="grid grid-cols-2 gap-1 font-mono"
        dir="ltr"
        data-testid="backup-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton
          targetId="backup-codes-list"
          text={codes.join("\n")}
          label={t("twoFactor.copyCodes")}
          accessibleName={t("twoFactor.copyCodesName")}
          copied={t("twoFactor.codesCopied")}
          failed={t("twoFactor.copyFailed")}
        />
        <Button asChild size="sm" variant="outline">
          <a
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
            download={FILE_NAME}
            aria-label={t("twoFactor.downloadName")}
          >
            <DownloadIcon aria-hidden /> {t("twoFactor.download", { ext: FILE_EXTENSION })}
          </a>
        </Button>
      </div>
    </section>
  );
}
