/** Delivery's fault report: one log line per failing task, said again only when its error changes. */
import { DatabaseUnavailableError } from "~/db/database.server";
import type { LeadStore } from "~/leads/contract.server";

export type DeliveryTask = "send" | "lock" | "scan";

/**
 * A broken store fails every few seconds the same way: each task (sending; the lock and
 * retention; the scan) says it once until its error changes, so two never alternate in the log.
 */
export function createFaultReport(store: LeadStore, log: (line: string) => void) {
  const lastReport = new Map<DeliveryTask, string>();
  return (task: DeliveryTask) => (error: unknown) => {
    // The database says its own outage once when it starts and once when it ends.
    if (error instanceof DatabaseUnavailableError) return;
    const line = `lead store: ${store.folder}: ${error instanceof Error ? error.message : String(error)}`;
    if (line !== lastReport.get(task)) log(line);
    lastReport.set(task, line);
  };
}

export type FaultReport = ReturnType<typeof createFaultReport>;
