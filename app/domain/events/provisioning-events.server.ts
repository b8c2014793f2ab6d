import { serviceLabel } from "~/domain/hosting-services/hosting-services";
import type { PanelPorts } from "~/domain/provisioning/panel-plan";
import { SERVICES_TAB, type Change, type ReactionTable } from "./reaction.server";
import type { ServiceRef } from "./service-events.server";

/**
 * The game panel's address and the last four characters of its keys (the Application API's, and the
 * optional Client API key's: null when none), as the audit keeps them.
 */
interface PanelConnectionRef {
  url: string;
  keyLast4: string | undefined;
  clientKeyLast4?: string | null;
}

export type ProvisioningEvent =
  /**
   * An admin saved the game panel's address, keys or location map, or removed its client key (audited
   * without the keys).
   */
  | {
      type: "panel.connectionSaved";
      actorId: string;
      change: Change<PanelConnectionRef | null>;
    }
  /**
   * A service's server finished installing on the panel (`install`: when that install began, its
   * identity: a reinstall wipes the server, so its end is news again). The customer is mailed where it
   * answers only while the service is `active` (not suspended or ended while it was made).
   */
  | {
      type: "service.provisioned";
      service: ServiceRef;
      active: boolean;
      panelServerId: number;
      install: string;
      address: string | null;
      ports: PanelPorts | null;
      panelLink: string | null;
      /** Its remote-admin password was drawn for it alone (the plan's generated variables). */
      secretsDrawn: boolean;
    }
  /** An admin asked for a failed service to be made again (or watched again): its panel state then. */
  | { type: "provisioning.retried"; actorId: string; serviceId: number; panelState: string | null }
  /** An admin asked the panel to run the server's install script again. */
  | { type: "provisioning.reinstallRequested"; actorId: string; serviceId: number }
  /** An admin asked for the service to be attached to `server` (its id, identifier or uuid). */
  | {
      type: "provisioning.relinkRequested";
      actorId: string;
      serviceId: number;
      panelServerId: number | null;
      server: string;
    };

/** What follows the panel's connection, a server made ready, and the admin's actions on a server. */
export const provisioningReactions: ReactionTable<ProvisioningEvent> = {
  "panel.connectionSaved": {
    audit: ({ actorId, change }) => ({
      actorId,
      action: "panel.connection.save",
      targetType: "settings",
      targetId: "gamePanel",
      ...change,
    }),
  },
  "service.provisioned": {
    notice: ({ service, panelServerId, install }) => ({
      userId: service.userId,
      kind: "service_ready",
      params: { service: serviceLabel(service) },
      link: SERVICES_TAB,
      // Once per install, as its mail.
      dedupeKey: `service-ready:${service.id}:${panelServerId}:${install}`,
    }),
    // Where it answers and how to manage it; not to a service suspended or ended meanwhile.
    mail: (event) =>
      event.active
        ? {
            kind: "serviceReady",
            userId: event.service.userId,
            serviceId: event.service.id,
            service: serviceLabel(event.service),
            install: event.install,
            address: event.address,
            ports: event.ports,
            panelLink: event.panelLink,
            secretsDrawn: event.secretsDrawn,
          }
        : null,
  },
  "provisioning.retried": {
    audit: ({ actorId, serviceId, panelState }) => ({
      actorId,
      action: "service.panel_retry",
      targetType: "hosting_service",
      targetId: serviceId,
      before: { panelState },
    }),
  },
  "provisioning.reinstallRequested": {
    audit: ({ actorId, serviceId }) => ({
      actorId,
      action: "service.panel_reinstall",
      targetType: "hosting_service",
      targetId: serviceId,
    }),
  },
  "provisioning.relinkRequested": {
    audit: ({ actorId, serviceId, panelServerId, server }) => ({
      actorId,
      action: "service.panel_relink",
      targetType: "hosting_service",
      targetId: serviceId,
      before: { panelServerId },
      after: { server },
    }),
  },
};
