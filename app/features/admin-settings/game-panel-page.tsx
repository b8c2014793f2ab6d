import type { ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { TitledCard } from "~/components/ui/card";
import { FormCard, FormFields, Switch, type FieldSpec } from "~/components/ui/form-card";
import { FreshProofField, type ProofAnswer } from "~/components/ui/fresh-proof-field";
import { IntentButton } from "~/components/ui/intent-button";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage, ResultText, type ActionResult } from "~/components/ui/result-message";
import { StatusMessage } from "~/components/ui/status-message";
import { useRefreshWhile } from "~/components/ui/use-refresh-while";
import type { PanelCheckView, PanelConnectionView } from "~/domain/provisioning/panel-connection";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";
import { useBusy } from "~/components/ui/use-busy";

export interface GamePanelActionResult extends ActionResult, ProofAnswer {
  intent: "save" | "check" | "network" | "removeClientKey";
}

/** How often the page looks again while a check waits for the worker. */
const CHECK_REFRESH_MS = 1500;

/**
 * /admin/settings/game-panel: the connection form (the keys are never shown again: only their
 * last four characters, and each is sent only to the address it was saved with; the client key, which
 * the worker reads servers' states with, is optional and can be removed), the order form's
 * locations mapped to the panel's, whether the panel may be on the local network, and what the last
 * check found (locations, nodes with their use, nests and eggs), which a job reads so the page never
 * waits on the panel.
 */
export function GamePanelPage({
  connection,
  locations,
  allowLocalNetwork,
  proofFresh,
  locale,
  result,
}: {
  connection: (PanelConnectionView & { check: PanelCheckView }) | null;
  locations: string[];
  allowLocalNetwork: boolean;
  /** The session's proof of identity is fresh: saving a key asks for none. */
  proofFresh: boolean;
  locale: string;
  result?: GamePanelActionResult;
}) {
  const { t } = useTranslation("provisioning");
  const message = useMessage();
  const busy = useBusy();
  const check = connection?.check ?? null;
  const snapshot = check?.snapshot ?? null;
  // While the worker has not run the check, look again now and then (a plain reload works too).
  useRefreshWhile(Boolean(check?.pending), CHECK_REFRESH_MS, check?.checkedAt);

  const saveResult = result?.intent === "save" ? result : undefined;
  const typed = saveResult && !saveResult.ok ? saveResult.values : undefined;
  const stored: Record<string, string> = {
    url: connection?.url ?? "",
    apiKey: "",
    clientKey: "",
    ...Object.fromEntries(
      locations.map((location) => [
        `location.${location}`,
        String(connection?.locationMap[location]?.[0] ?? ""),
      ]),
    ),
  };
  const locationFields: FieldSpec[] = locations.map((location) =>
    snapshot
      ? {
          kind: "select",
          variant: "validated",
          name: `location.${location}`,
          id: `location-${locations.indexOf(location)}`,
          label: t("panel.locationFor", { location }),
          options: [
            { value: "", label: t("panel.noLocation") },
            ...snapshot.locations.map((panelLocation) => ({
              value: String(panelLocation.id),
              label: panelLocation.long
                ? `${panelLocation.short} (${panelLocation.long})`
                : panelLocation.short,
            })),
          ],
        }
      : {
          kind: "input",
          type: "text",
          inputMode: "numeric",
          name: `location.${location}`,
          id: `location-${locations.indexOf(location)}`,
          label: t("panel.locationFor", { location }),
          hint: t("panel.locationIdHint"),
          dir: "ltr",
        },
  );
  const fields: FieldSpec[] = [
    {
      kind: "input",
      type: "url",
      name: "url",
      label: t("panel.url"),
      hint: t("panel.urlHint"),
      required: true,
      maxLength: 300,
      dir: "ltr",
      placeholder: "https://panel.example.com",
    },
    {
      kind: "password",
      name: "apiKey",
      label: t("panel.apiKey"),
      hint: connection
        ? t("panel.apiKeySaved", { last4: connection.keyLast4 })
        : t("panel.apiKeyHint"),
      showLabel: t("panel.showKey"),
      hideLabel: t("panel.hideKey"),
      autoComplete: "off",
      maxLength: 200,
    },
    {
      kind: "password",
      name: "clientKey",
      label: t("panel.clientKey"),
      hint: connection?.clientKeyLast4
        ? t("panel.clientKeySaved", { last4: connection.clientKeyLast4 })
        : t("panel.clientKeyHint"),
      showLabel: t("panel.showKey"),
      hideLabel: t("panel.hideKey"),
      autoComplete: "off",
      maxLength: 200,
    },
    ...locationFields,
  ];
  const date = mediumDateTime(locale);
  const checkResult = result?.intent === "check" ? result : undefined;
  const networkResult = result?.intent === "network" ? result : undefined;
  const removeResult = result?.intent === "removeClientKey" ? result : undefined;
  const locationName = (id: number) =>
    snapshot?.locations.find((location) => location.id === id)?.short ?? String(id);

  return (
    <main className="grid gap-6">
      <PageHeading
        title={t("panel.title")}
        intro={t("panel.intro")}
        parent={{ to: "/admin/settings", label: t("panel.backToSettings") }}
      />
      <FormCard
        id="save"
        title={t("panel.connectionTitle")}
        description={t("panel.connectionDescription")}
        aside={
          connection ? (
            <Badge tone="green">{t("panel.connected")}</Badge>
          ) : (
            <Badge tone="grey">{t("panel.notSaved")}</Badge>
          )
        }
        status={saveResult ? { ok: saveResult.ok, text: <ResultText result={saveResult} /> } : null}
        busy={busy}
        submit={{ label: t("panel.save"), busyLabel: t("panel.saving") }}
      >
        <FormFields
          // Made again after each save, so the key typed does not stay in its field (it is never shown).
          key={connection?.updatedAt ?? "new"}
          fields={fields}
          idPrefix="panel"
          values={typed ?? stored}
          errors={saveResult?.fieldErrors}
        />
        {/* Asked for when a key is typed (saving the address or the locations alone asks nothing). */}
        <FreshProofField id="panel-proof" needed={!proofFresh} result={saveResult} />
      </FormCard>
      {connection?.clientKeyLast4 || removeResult ? (
        <TitledCard title={t("panel.clientKeyTitle")}>
          <div className="grid gap-4">
            <p className="text-sm text-muted-foreground">{t("panel.clientKeyDescription")}</p>
            {removeResult ? <ResultMessage result={removeResult} /> : null}
            {connection?.clientKeyLast4 ? (
              <IntentButton
                intent="removeClientKey"
                fields={{}}
                variant="outline"
                confirmText={t("panel.removeClientKeyConfirm")}
              >
                {t("panel.removeClientKey")}
              </IntentButton>
            ) : null}
          </div>
        </TitledCard>
      ) : null}
      <FormCard
        id="network"
        title={t("panel.networkTitle")}
        description={t("panel.networkDescription")}
        status={
          networkResult
            ? { ok: networkResult.ok, text: <ResultText result={networkResult} /> }
            : null
        }
        busy={busy}
        submit={{ label: t("panel.networkSave"), busyLabel: t("panel.saving") }}
      >
        <Switch
          // Made again after each save, so the box shows what is stored.
          key={String(allowLocalNetwork)}
          id="panel-allow-local-network"
          name="allowLocalNetwork"
          label={t("panel.allowLocalNetwork")}
          checked={allowLocalNetwork}
        />
      </FormCard>
      <TitledCard title={t("panel.checkTitle")}>
        <div className="grid gap-4">
          <p className="text-sm text-muted-foreground">{t("panel.checkDescription")}</p>
          {checkResult ? <ResultMessage result={checkResult} /> : null}
          {check?.pending ? (
            <p role="status" className="text-sm" data-testid="panel-check-pending">
              {t("panel.checking")}
            </p>
          ) : null}
          {check?.error && !check.pending ? (
            <StatusMessage ok={false} detail={check.error.detail}>
              {message(check.error.key as MessageKey)}
            </StatusMessage>
          ) : null}
          {check?.checkedAt ? (
            <p className="text-sm text-muted-foreground">
              {t("panel.checkedAt", { date: date.format(new Date(check.checkedAt)) })}
            </p>
          ) : null}
          {connection ? (
            <IntentButton intent="check" fields={{}} variant="outline">
              {t("panel.check")}
            </IntentButton>
          ) : null}
          {snapshot ? (
            <div className="grid gap-4 text-sm" data-testid="panel-snapshot">
              <SnapshotList
                id="panel-nodes"
                title={t("panel.nodes", { count: snapshot.nodes.length })}
              >
                {snapshot.nodes.map((node) => (
                  <li key={node.id} dir="auto">
                    <bdi>{node.name}</bdi> · {locationName(node.locationId)} ·{" "}
                    {t("panel.nodeUse", {
                      memory: node.allocatedMemoryMb,
                      memoryTotal: node.memoryMb,
                      disk: node.allocatedDiskMb,
                      diskTotal: node.diskMb,
                    })}
                    {node.maintenance ? ` · ${t("panel.maintenance")}` : ""}
                  </li>
                ))}
              </SnapshotList>
              <SnapshotList
                id="panel-nests"
                title={t("panel.nests", { count: snapshot.nests.length })}
              >
                {snapshot.nests.map((nest) => (
                  <li key={nest.id} dir="auto">
                    <bdi>{nest.name}</bdi>:{" "}
                    {nest.eggs.map((egg) => egg.name).join(", ") || t("panel.noEggs")}
                  </li>
                ))}
              </SnapshotList>
            </div>
          ) : null}
        </div>
      </TitledCard>
    </main>
  );
}

/** One list of what the panel holds (its nodes, its eggs by nest), named by its heading. */
function SnapshotList({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      <ul className="mt-1 grid gap-1">{children}</ul>
    </section>
  );
}
