import { useTranslation } from "~/i18n/use-translation";
import { CopyButton } from "~/components/ui/copy-button";
import { CodeBlock } from "~/components/ui/code-block";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/phpmyadmin";
import { requestContext } from "~/context.server";
import { sitePageMeta } from "~/http/site-page.server";

export function loader({ context }: Route.LoaderArgs) {
  return sitePageMeta(requestContext(context), "phpmyadmin.metaTitle", "phpmyadmin.subtitle");
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const SCRIPT = `#!/usr/bin/env bash
# Installs phpMyAdmin with Apache, PHP and MariaDB on Debian or Ubuntu. Run as root.
set -euo pipefail
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y apache2 mariadb-server php libapache2-mod-php php-mysql php-mbstring php-zip php-gd php-json php-curl
echo "phpmyadmin phpmyadmin/dbconfig-install boolean true" | debconf-set-selections
echo "phpmyadmin phpmyadmin/reconfigure-webserver multiselect apache2" | debconf-set-selections
DEBIAN_FRONTEND=noninteractive apt-get install -y phpmyadmin
systemctl enable --now apache2 mariadb
echo "phpMyAdmin is ready at http://$(hostname -I | awk '{print $1}')/phpmyadmin"
`;

export default function PhpMyAdmin() {
  const { t } = useTranslation("site");
  return (
    <main className="mx-auto max-w-4xl px-4 py-16">
      <h1 id="phpmyadmin-title" className="text-4xl font-extrabold">
        {t("phpmyadmin.title")}
      </h1>
      <p className="mt-3 text-muted-foreground">{t("phpmyadmin.subtitle")}</p>
      <div className="mt-8 overflow-hidden rounded-xl border bg-secondary text-slate-100">
        <div className="flex justify-end border-b border-slate-700 p-2">
          <CopyButton
            targetId="phpmyadmin-script"
            variant="secondary"
            label={t("phpmyadmin.copy")}
            copied={t("phpmyadmin.copied")}
            failed={t("phpmyadmin.copyFailed")}
          />
        </div>
        <CodeBlock labelledBy="phpmyadmin-title" className="p-4 text-sm">
          <code id="phpmyadmin-script">{SCRIPT}</code>
        </CodeBlock>
      </div>
    </main>
  );
}
