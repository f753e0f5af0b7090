/**
 * The campaign counts of one server: where they are kept (PostgreSQL with DATABASE_URL, else the
 * data folder), the day they fall on, and what counts a landing, a tap and a lead stored.
 */
import { type CountEvent, dayIn } from "~/campaigns/counts";
import { cleanCampaign, leadEvent } from "~/campaigns/events.server";
import { campaignsFolder, createFolderCampaignStore } from "~/campaigns/folder-store.server";
import { type LandingLimits, takeLandingUnit } from "~/campaigns/landing-limits.server";
import { countIn, createPostgresCampaignStore } from "~/campaigns/postgres-store.server";
import type { CampaignCountStore } from "~/campaigns/store.server";
import type { Database } from "~/db/database.server";
import type { Env } from "~/env.server";
import { createBatchedWrites } from "~/http/batched-writes.server";
import type { CampaignFields } from "~/lead-parts/campaign-fields";
import type { LeadCounting } from "~/leads/lead-service.server";
import type { BeaconCounting } from "~/vitals/beacon.server";

/** A beacon's visit and tap (~/vitals/beacon.server: BeaconCounting), and what the rest of the server counts. */
export interface CampaignCounts extends BeaconCounting {
  readonly store: CampaignCountStore;
  /** Writes the beacons' counts queued so far (the server does as it stops). */
  flush(): Promise<void>;
  /** How a lead store counts a lead it has just stored (an enquiry, or one quarantined), once. */
  readonly leads: LeadCounting;
  /** Drops what is past its retention, and compacts finished days in the folder. */
  prune(): Promise<void>;
  /** Today, in REPORT_TIME_ZONE. */
  today(): string;
}

export function createCampaignCounts(options: {
  config: Pick<Env, "ENQUIRY_STORE_DIR" | "REPORT_TIME_ZONE">;
  database: Database | null;
  limits: LandingLimits;
  now?: () => Date;
  log?: (line: string) => void;
  /** How long a beacon's counts wait for their write (~/http/batched-writes.server: BATCH_MS). */
  batchMs?: number;
}): CampaignCounts {
  const { config, database, limits, now = () => new Date(), log = console.error, batchMs } = options;
  const timeZone = config.REPORT_TIME_ZONE;
  const store = database
    ? createPostgresCampaignStore(database, log)
    : createFolderCampaignStore({ folder: campaignsFolder(config.ENQUIRY_STORE_DIR), log });
  const beaconCounts = createBatchedWrites<CountEvent>({
    name: "campaign counts",
    write: (events) => store.add(events),
    batchMs,
    log,
  });
  const today = () => dayIn(now(), timeZone);
  const event = (
    route: string,
    fields: Partial<Record<keyof CampaignFields, unknown>>,
    counter: CountEvent["counter"],
  ): CountEvent => ({
    day: today(),
    route,
    ...cleanCampaign(fields),
    counter,
  });

  return {
    store,
    today,
    async countLanding(route, fields, client) {
      if (limits.off) return "off";
      const allowance = await takeLandingUnit(limits, client);
      if (!allowance.allowed) {
        // What the limit drops is counted, by day only: nothing of the visit is kept.
        beaconCounts.add([{ ...event("", {}, "droppedVisits"), route: null }]);
        return "dropped";
      }
      beaconCounts.add([event(route, fields, "visits")]);
      return "counted";
    },
    countTap: (route, fields) => beaconCounts.add([event(route, fields, "whatsappTaps")]),
    flush: () => beaconCounts.flush(),
    leads: {
      inTransaction: (client, lead) => countIn(client, [leadEvent(lead, timeZone)]),
      afterWrite: async (lead) => {
        await store.add([leadEvent(lead, timeZone)]);
      },
    },
    prune: () => store.prune(today()),
  };
}
