import { ShieldOffIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import {
  PERMISSION_LABELS,
  STAFF_ROLE_LABELS,
  type Permission,
  type StaffRole,
} from "~/domain/staff/permissions";

/**
 * What a member of the staff sees on a page or after a post their role does not hold: the permission,
 * by its name and its key, and their role. The guard answered 403 (app/http/guards.server.ts).
 */
export function PermissionRefused({
  permission,
  role,
}: {
  permission: Permission;
  role: StaffRole | null;
}) {
  const { t } = useTranslation("admin-staff");
  return (
    <section
      aria-labelledby="permission-refused"
      className="mx-auto flex max-w-xl flex-col items-center gap-3 py-12 text-center"
    >
      <title>{t("refused.title")}</title>
      <ShieldOffIcon className="size-10 text-muted-foreground" aria-hidden />
      <h1 id="permission-refused" className="text-2xl font-bold">
        {t("refused.title")}
      </h1>
      <p className="text-muted-foreground">
        {t("refused.text", {
          role: role ? t(STAFF_ROLE_LABELS[role]) : t("refused.noRole"),
          permission: t(PERMISSION_LABELS[permission]),
        })}
      </p>
      <p>
        <code dir="ltr" className="rounded bg-muted px-2 py-1 text-sm">
          {permission}
        </code>
      </p>
      <p className="text-sm text-muted-foreground">{t("refused.ask")}</p>
    </section>
  );
}
