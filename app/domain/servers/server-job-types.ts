// The job types of server control (docs/server-control.md), apart from their handlers, so that the
// use-cases that queue them need none of them.

/** Reads a server's state (the panel's resources) and its players (the game's query). */
export const SERVER_STATUS_JOB = "servers.status";
/** Reads what changes rarely: SFTP access and the editable variables. */
export const SERVER_DETAILS_JOB = "servers.details";
/** Queues a status read of each server whose customer asked for the offline notice. */
export const SERVER_WATCH_JOB = "servers.watch";
/** Sends a power signal. */
export const SERVER_POWER_JOB = "servers.power";
/** Sets one egg variable the panel lets its user edit. */
export const SERVER_VARIABLE_JOB = "servers.variable";
/** Sets a new password on the customer's panel account. */
export const SERVER_PASSWORD_JOB = "servers.password";

/** One status read of a service at a time, however many pages ask. */
export function statusJobKey(serviceId: number): string {
  return `server-status:${serviceId}`;
}
