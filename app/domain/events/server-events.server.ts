import { serviceLabel } from "~/domain/hosting-services/hosting-services";
import { SERVICES_TAB, type ReactionTable } from "./reaction.server";
import type { ServiceRef } from "./service-events.server";

export type ServerEvent =
  /**
   * A server whose customer asked for the offline notice has been read offline for `minutes` since
   * `offlineSince` (the status job, no actor): told once per offline spell, the spell's start its key.
   */
  {
    type: "server.offlineNoticed";
    service: ServiceRef;
    offlineSince: string;
    minutes: number;
  };

/** What follows what the worker reads of a customer's server (docs/server-control.md). */
export const serverReactions: ReactionTable<ServerEvent> = {
  "server.offlineNoticed": {
    notice: ({ service, offlineSince, minutes }) => ({
      userId: service.userId,
      kind: "server_offline",
      params: { service: serviceLabel(service), count: minutes },
      link: SERVICES_TAB,
      // Once per spell, as its mail, whatever runs the job twice.
      dedupeKey: `server-offline:${service.id}:${new Date(offlineSince).toISOString()}`,
    }),
    mail: ({ service, offlineSince, minutes }) => ({
      kind: "serverOffline",
      userId: service.userId,
      serviceId: service.id,
      service: serviceLabel(service),
      offlineSince,
      minutes,
    }),
  },
};
