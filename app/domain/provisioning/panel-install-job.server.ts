import type { Updateable } from "kysely";
import type { HostingServicesTable } from "~/db/schema";
import { inTransaction, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import {
  enqueueJob,
  PermanentJobError,
  RetryLater,
  type JobContext,
  type JobHandler,
} from "~/domain/jobs/jobs.server";
import { settleQueuedReinstalls } from "~/domain/servers/server-action-rows.server";
import { SERVER_ACTION_FAILURE_LABELS } from "~/domain/servers/server-actions";
import {
  loadService,
  notingFailure,
  ProvisioningFailure,
  withPanel,
  type ProvisioningConfig,
  type ServicePayload,
} from "./panel-job-kit.server";
import { PANEL_INSTALL_JOB, PANEL_SYNC_JOB } from "./panel-job-types";
import { panelServerLink, parsePanelPlan, parsePanelPorts } from "./panel-plan";

// A server being installed (just made, or reinstalled): watched by one look after another until it is
// ready, failed or past its deadline; ready, its customer is told where it answers.

/**
 * The next look at an install. Every look carries when the install began (`startedAt`, the install's
 * identity: its ready mail is once per install) and the deadline fixed then.
 */
async function queueInstallWatch(
  trx: Parameters<typeof enqueueJob>[0],
  serviceId: number,
  now: Date,
  config: ProvisioningConfig,
  install = {
    startedAt: now.toISOString(),
    deadline: new Date(now.getTime() + config.installTimeoutMs).toISOString(),
  },
) {
  await enqueueJob(trx, {
    type: PANEL_INSTALL_JOB,
    payload: { serviceId, ...install },
    runAt: new Date(now.getTime() + config.pollMs),
    uniqueKey: `panel:install:${serviceId}`,
    now,
  });
}

/**
 * Step: the service's server is installing (just made, with where it is, or reinstalled): the job that
 * got it there is done, and a job watches the install.
 */
export async function installStarted(
  trx: Tx,
  job: {
    serviceId: number;
    now: Date;
    config: ProvisioningConfig;
    complete: JobContext["complete"];
  },
  server: Updateable<HostingServicesTable> = {},
): Promise<void> {
  await trx
    .updateTable("hosting_services")
    .set({
      panel_state: "installing",
      panel_error: null,
      ...server,
      panel_updated_at: job.now.toISOString(),
    })
    .where("id", "=", job.serviceId)
    .execute();
  await job.complete(trx);
  await queueInstallWatch(trx, job.serviceId, job.now, job.config);
}

/**
 * A reinstall a customer or an admin asked from the server's page (`server_actions`) ends with the
 * install it started: done when the server is ready again (in the watch's own transaction), failed when
 * the reinstall or the watch of its install gives up (no attempt left, or a failure another cannot
 * change), as the service's panel state does.
 */
function settlingReinstalls(handler: JobHandler): JobHandler {
  return async (context) => {
    const { db, job, now } = context;
    try {
      return await handler(context);
    } catch (error) {
      const last =
        !(error instanceof RetryLater) &&
        (error instanceof PermanentJobError || job.attempts >= job.max_attempts);
      if (last) {
        const installFailed =
          error instanceof ProvisioningFailure &&
          ["provisioning.failures.installFailed", "provisioning.failures.installTimedOut"].includes(
            error.reason,
          );
        const failure = installFailed
          ? SERVER_ACTION_FAILURE_LABELS.installFailed
          : error instanceof PermanentJobError
            ? SERVER_ACTION_FAILURE_LABELS.panelError
            : SERVER_ACTION_FAILURE_LABELS.unreachable;
        const { serviceId } = context.payload as ServicePayload;
        await settleQueuedReinstalls(db, serviceId, { state: "failed", error: failure }, now);
      }
      throw error;
    }
  };
}

export function installHandler(config: ProvisioningConfig): JobHandler {
  return settlingReinstalls(watchInstall(config));
}

function watchInstall(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job, complete }): Promise<Record<string, number>> => {
    const { serviceId, deadline, startedAt } = payload as ServicePayload & {
      deadline: string;
      startedAt?: string;
    };
    // A look queued before looks carried `startedAt`: its deadline, fixed with it, stands for it.
    const install = { startedAt: startedAt ?? deadline, deadline };
    const service = await loadService(db, serviceId);
    if (!service || service.panel_state !== "installing" || service.panel_server_id === null)
      return { skipped: 1 };
    return notingFailure(db, serviceId, job, now, async (): Promise<Record<string, number>> => {
      const { server, panelUrl } = await withPanel(
        db,
        config,
        { serviceId, job, now },
        async (client, url) => ({
          server: await client.getServer(Number(service.panel_server_id)),
          panelUrl: url,
        }),
      );
      if (server.status === "installing") {
        if (now.toISOString() > deadline)
          throw new ProvisioningFailure("provisioning.failures.installTimedOut");
        // Not yet: this look is done, the next is a new job (a long install spends no attempts).
        await inTransaction(db, async (trx) => {
          await complete(trx);
          await queueInstallWatch(trx, serviceId, now, config, install);
        });
        return { waiting: 1 };
      }
      if (server.status === "install_failed" || server.status === "reinstall_failed")
        throw new ProvisioningFailure("provisioning.failures.installFailed", server.status);
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable("hosting_services")
          .set({ panel_state: "ready", panel_error: null, panel_updated_at: now.toISOString() })
          .where("id", "=", serviceId)
          .execute();
        await settleQueuedReinstalls(trx, serviceId, { state: "done" }, now);
        await record(
          trx,
          {
            type: "service.provisioned",
            service: {
              id: serviceId,
              userId: service.user_id,
              name: service.name,
              serverName: service.server_name,
            },
            active: service.status === "active",
            panelServerId: Number(service.panel_server_id),
            install: install.startedAt,
            address: service.panel_address,
            ports: parsePanelPorts(service.panel_ports),
            panelLink: panelServerLink(panelUrl, service.panel_identifier),
            secretsDrawn: (parsePanelPlan(service.panel_plan)?.generatedVariables.length ?? 0) > 0,
          },
          now,
        );
        // Suspended or ended while it was being made: the panel follows now.
        if (service.status !== "active")
          await enqueueJob(trx, { type: PANEL_SYNC_JOB, payload: { serviceId }, now });
        await complete(trx);
      });
      return { ready: 1 };
    });
  };
}

export function reinstallHandler(config: ProvisioningConfig): JobHandler {
  return settlingReinstalls(sendReinstall(config));
}

function sendReinstall(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job, complete }): Promise<Record<string, number>> => {
    const { serviceId } = payload as ServicePayload;
    const service = await loadService(db, serviceId);
    if (!service || service.panel_server_id === null) {
      const gone = { state: "failed", error: SERVER_ACTION_FAILURE_LABELS.notFound } as const;
      await settleQueuedReinstalls(db, serviceId, gone, now);
      return { skipped: 1 };
    }
    return notingFailure(db, serviceId, job, now, async () => {
      await withPanel(db, config, { serviceId, job, now }, (client) =>
        client.reinstallServer(Number(service.panel_server_id)),
      );
      await inTransaction(db, (trx) => installStarted(trx, { serviceId, now, config, complete }));
      return { reinstalled: 1 };
    });
  };
}
