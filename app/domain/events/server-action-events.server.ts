import type { PowerSignal } from "~/domain/servers/server-control";
import type { ReactionTable } from "./reaction.server";

/**
 * What a customer or an admin asked of a provisioned server (docs/server-control.md, "Actions"): who
 * (`actorId`; `asStaff` when an admin acted on someone's service) and what. Never a password nor a
 * variable's value: a variable is named, its value stays on the panel.
 */
export type ServerActionEvent =
  | {
      type: "server.powerRequested";
      actorId: string;
      asStaff: boolean;
      serviceId: number;
      actionId: number;
      signal: PowerSignal;
    }
  | {
      type: "server.reinstallRequested";
      actorId: string;
      asStaff: boolean;
      serviceId: number;
      actionId: number;
    }
  | {
      type: "server.variableRequested";
      actorId: string;
      asStaff: boolean;
      serviceId: number;
      actionId: number;
      variable: string;
    }
  | {
      type: "server.passwordRequested";
      actorId: string;
      asStaff: boolean;
      serviceId: number;
      actionId: number;
    };

/** Each is audited on the service; what the job made of it is the action's row (`server_actions`). */
export const serverActionReactions: ReactionTable<ServerActionEvent> = {
  "server.powerRequested": {
    audit: ({ actorId, asStaff, serviceId, actionId, signal }) => ({
      actorId,
      action: "service.server_power",
      targetType: "hosting_service",
      targetId: serviceId,
      after: { signal, actionId, asStaff },
    }),
  },
  "server.reinstallRequested": {
    audit: ({ actorId, asStaff, serviceId, actionId }) => ({
      actorId,
      action: "service.server_reinstall",
      targetType: "hosting_service",
      targetId: serviceId,
      after: { actionId, asStaff },
    }),
  },
  "server.variableRequested": {
    audit: ({ actorId, asStaff, serviceId, actionId, variable }) => ({
      actorId,
      action: "service.server_variable",
      targetType: "hosting_service",
      targetId: serviceId,
      after: { variable, actionId, asStaff },
    }),
  },
  "server.passwordRequested": {
    audit: ({ actorId, asStaff, serviceId, actionId }) => ({
      actorId,
      action: "service.server_password",
      targetType: "hosting_service",
      targetId: serviceId,
      after: { actionId, asStaff },
    }),
  },
};
