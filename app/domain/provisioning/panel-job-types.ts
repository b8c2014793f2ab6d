// The game panel's job types (provisioning-jobs.server.ts gives each its handler). Apart from the handlers,
// so that the steps that queue them (panel-link.server.ts, provisioning.server.ts) need none of them.

export const PANEL_CREATE_JOB = "provisioning.create";
export const PANEL_INSTALL_JOB = "provisioning.await-install";
export const PANEL_SYNC_JOB = "provisioning.sync";
export const PANEL_REINSTALL_JOB = "provisioning.reinstall";
export const PANEL_RELINK_JOB = "provisioning.relink";
export const PANEL_RECONCILE_JOB = "provisioning.reconcile";
export const PANEL_USER_JOB = "provisioning.user-sync";
/** A server's limits moved to its service's plan after a change of plan (panel-resize-job.server.ts). */
export const PANEL_RESIZE_JOB = "provisioning.resize";
