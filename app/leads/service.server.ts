/**
 * The lead service: picks the store and lock from the environment, and gives the app one way to
 * keep, count and deliver leads.
 */
import { type Database, DatabaseUnavailableError } from "~/db/database.server";
import type { Env } from "~/env.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import type { PrivacyNoticeRecord } from "~/lead-parts/privacy-notice";
import type { LeadSource } from "~/lead-parts/source";
import type { SpamReason } from "~/lead-parts/spam-reasons";
import { type LeadCounts, type LeadStore, MAX_LEADS, noLeads, StoreFullError } from "~/leads/contract.server";
import type { DelivererLock } from "~/leads/deliverer-lock";
import {
  configuredDestinations,
  createDelivery,
  type DestinationRoutes,
  type GaveUp,
  PROBE_AFTER_MS,
} from "~/leads/delivery/delivery.server";
import { createFolderDelivererLock, delivererLockPath } from "~/leads/folder/lock.server";
import { createFolderLeadStore, leadsFolder } from "~/leads/folder/store.server";
import { describeLeads, type ServerLeadsHealth } from "~/leads/health-report";
import { importLeadFolder } from "~/leads/postgres/import.server";
import { createPostgresDelivererLock } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";

export type { LeadsHealth, ServerLeadsHealth } from "~/leads/health-report";

export interface LeadService {
  /**
   * Keeps an enquiry in the store and has it delivered: its lead's id, or null when the store
   * cannot keep it (then the caller sends it directly). The lead keeps where its sender came
   * from and the privacy notice they were shown, when known.
   */
  keep(enquiry: Enquiry, source?: LeadSource, privacyNotice?: PrivacyNoticeRecord): Promise<string | null>;
  /**
   * Keeps an enquiry a filter caught in the quarantine (state `spam`, never delivered): its
   * lead's id, or null when the store cannot keep it. Nothing is sent directly: a caught
   * enquiry waits for an operator.
   */
  quarantine(
    enquiry: Enquiry,
    reason: SpamReason,
    source?: LeadSource,
    privacyNotice?: PrivacyNoticeRecord,
  ): Promise<string | null>;
  /** Whether the lead `id` is still kept: false once it was erased (by any process) or removed. */
  stillKeeps(id: string): Promise<boolean>;
  /**
   * The store's state (from the last write, or a write probe when there was none lately), its
   * counts, and how many delivery outcomes wait in this process's memory.
   */
  health(now?: number): Promise<ServerLeadsHealth>;
  /** How many leads each state holds, delivery's unwritten outcomes counted as they are; throws when the store cannot say. */
  counts(): Promise<LeadCounts>;
  /** Starts the delivery loops (their timers never keep the process alive). */
  start(): void;
  /** Whether this process delivers now (holds the deliverer lock). */
  isDeliverer(): boolean;
  /**
   * Stops delivery for a clean shutdown: no new send; resolves once a send in flight has its
   * outcome written and the lock is free. Stored leads wait for the next start.
   */
  stop(): Promise<void>;
}

type Config = Pick<
  Env,
  "ENQUIRY_STORE_DIR" | "ENQUIRY_SEND_INTERVAL_MS" | "ENQUIRY_RETENTION_DAYS" | "ENQUIRY_SPAM_RETENTION_DAYS"
>;

/**
 * The lead pipeline, created once by the server: the wiring only, the behaviour lives in the
 * stores, the locks and the delivery loop. With a database (DATABASE_URL) leads live there and
 * the folder's leads are imported once; without one, in ENQUIRY_STORE_DIR.
 */
export function createLeadService(
  config: Config,
  routes: DestinationRoutes,
  database: Database | null = null,
  log: (line: string) => void = console.error,
  /** Told once each time a destination gives up on a lead (alerts, `lead.failed`). */
  onGaveUp?: (gaveUp: GaveUp) => void,
): LeadService {
  const folder = leadsFolder(config.ENQUIRY_STORE_DIR);
  const place = database ? "the database (DATABASE_URL)" : `ENQUIRY_STORE_DIR=${config.ENQUIRY_STORE_DIR}`;
  let usable = true;
  let full = false;
  const markUsable = (now: boolean, cause?: unknown) => {
    // An unreachable database is said by the database itself, once when it starts and once when it ends.
    if (cause instanceof DatabaseUnavailableError) return;
    if (now === usable) return;
    usable = now;
    if (now) {
      log(`lead store: ${place} is usable again; enquiries are kept`);
      return;
    }
    const reason = cause instanceof Error ? cause.message : String(cause);
    log(
      `lead store: ${place} is unusable (${reason}); enquiries are sent directly and not kept until it is fixed`,
    );
  };
  const onWrite = (error: unknown) => markUsable(error === null, error);
  const store: LeadStore = database
    ? createPostgresLeadStore({ database, onWrite })
    : createFolderLeadStore({ folder, onWrite });
  const lock: DelivererLock = database
    ? createPostgresDelivererLock(database)
    : createFolderDelivererLock({ path: delivererLockPath(folder) });
  const delivery = createDelivery({
    store,
    routes,
    lock,
    onGaveUp,
    intervalMs: config.ENQUIRY_SEND_INTERVAL_MS,
    retentionDays: config.ENQUIRY_RETENTION_DAYS,
    spamRetentionDays: config.ENQUIRY_SPAM_RETENTION_DAYS,
  });
  let stopped = false;

  /** With a database: once it is reachable and migrated, the folder's leads move in, then delivery starts. */
  const startWithDatabase = async (db: Database) => {
    try {
      await db.ready();
    } catch {
      return;
    }
    await importLeadFolder({ database: db, folder, log }).catch((error: unknown) => {
      log(
        `lead store: could not import the leads of ${folder} into the database (${error instanceof Error ? error.message : String(error)}); the next start tries again`,
      );
    });
    if (!stopped) delivery.start();
  };

  return {
    async keep(enquiry, source, privacyNotice) {
      try {
        const lead = await store.add(enquiry, configuredDestinations(routes), source, privacyNotice);
        full = false;
        delivery.wake();
        return lead.id;
      } catch (error) {
        if (error instanceof StoreFullError && !full) {
          full = true;
          log(
            `lead store: ${place}: ${error.message}; new enquiries are sent directly and not kept until leads are delivered or removed (retention or by hand)`,
          );
        }
        return null;
      }
    },
    async quarantine(enquiry, reason, source, privacyNotice) {
      try {
        return (await store.quarantine(enquiry, reason, source, privacyNotice)).id;
      } catch {
        // The store's write outcome (onWrite) already says whether it is usable.
        return null;
      }
    },
    stillKeeps: (id) => store.has(id),
    isDeliverer: () => delivery.isDeliverer(),
    async health(now = Date.now()) {
      const written = store.lastWrite();
      if (!written || now - written.at >= PROBE_AFTER_MS) await store.probe();
      const counts = await store.counts(delivery.unwrittenOutcomes()).catch(() => null);
      const described = describeLeads({
        counts: counts ?? noLeads(),
        lastWrite: store.lastWrite(),
        maxLeads: MAX_LEADS,
        now,
      });
      return { ...described, unwrittenOutcomes: delivery.unwrittenCount() };
    },
    counts: () => store.counts(delivery.unwrittenOutcomes()),
    start() {
      if (database) {
        void startWithDatabase(database);
        return;
      }
      delivery.start();
      void store.probe();
    },
    async stop() {
      stopped = true;
      await delivery.stop();
    },
  };
}
