/**
 * The lead service: picks the store and lock from the environment, and gives the app one way to
 * keep, count and deliver leads.
 */
import { randomUUID } from "node:crypto";
import { type Database, DatabaseUnavailableError } from "~/db/database.server";
import type { Env } from "~/env.server";
import type { Enquiry } from "~/lead-parts/enquiry";
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
import { createDirectSends, type DirectOutcome, type DirectSenders } from "~/leads/direct-sends.server";
import { createFolderDelivererLock, delivererLockPath } from "~/leads/folder/lock.server";
import { createFolderLeadStore, leadsFolder } from "~/leads/folder/store.server";
import { describeLeads, type ServerLeadsHealth } from "~/leads/health-report";
import { type Lead, logLeadState, newLead } from "~/leads/lead";
import { importLeadFolder } from "~/leads/postgres/import.server";
import { isLeadOwnError } from "~/leads/postgres/insert.server";
import { createPostgresDelivererLock } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { createLeadSpool, createSpoolLog, spoolFolder, startSpoolDrain } from "~/leads/spool.server";
import type { PrivacyNoticeRecord } from "~/privacy-notice/record";

export type { DirectSenders } from "~/leads/direct-sends.server";

export type { LeadsHealth, ServerLeadsHealth } from "~/leads/health-report";

/**
 * What became of an enquiry given to `keep`: stored; spooled (the database did not take it in
 * time: it moves there when the database answers); sent directly to the destinations `to` (kept
 * nowhere); or kept and sent nowhere (`reachable`: some destination could take a direct send,
 * and none did; false: none can, which the operator must fix).
 */
export type KeepOutcome = { kind: "stored"; id: string } | { kind: "spooled"; id: string } | DirectOutcome;

/**
 * How long a visitor waits for the database to take a new lead before it goes to the spool: the
 * database's own lock timeout. The insert goes on; a late one and the spool's hold one id, which
 * the database stores once.
 */
export const KEEP_WAIT_MS = 2_000;

export interface LeadService {
  /**
   * Keeps an enquiry and has it delivered to every configured destination: in the store, or
   * with a database that does not take it within KEEP_WAIT_MS in the spool of the data folder,
   * or when neither can keep it, sent directly to each destination that takes a direct send. The
   * lead keeps where its sender came from and the privacy notice they were shown, when known.
   */
  keep(enquiry: Enquiry, source?: LeadSource, privacyNotice?: PrivacyNoticeRecord): Promise<KeepOutcome>;
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
  /** Whether the lead `id` is still kept (in the store or this process's spool): false once it was erased (by any process) or removed. */
  stillKeeps(id: string): Promise<boolean>;
  /** How many leads this process sent directly since it started (kept nowhere): the alerts count them. */
  directlySent(): number;
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
  /** Where delivery sends leads, and how each destination takes a direct send. */
  destinations: { routes: DestinationRoutes; direct?: DirectSenders },
  database: Database | null = null,
  log: (line: string) => void = console.error,
  /** Told once each time a destination gives up on a lead (alerts, `lead.failed`). */
  onGaveUp?: (gaveUp: GaveUp) => void,
): LeadService {
  const { routes, direct = {} } = destinations;
  const folder = leadsFolder(config.ENQUIRY_STORE_DIR);
  const place = database ? "the database (DATABASE_URL)" : `ENQUIRY_STORE_DIR=${config.ENQUIRY_STORE_DIR}`;
  // With a database, what it does not take in time waits in the data folder's spool.
  const spool = database ? createLeadSpool({ folder: spoolFolder(config.ENQUIRY_STORE_DIR), log }) : null;
  const spoolLog = createSpoolLog(log);
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
      `lead store: ${place} is unusable (${reason}); ${spool ? `enquiries wait in the spool ${spool.folder} until it takes them` : "enquiries are sent directly and not kept until it is fixed"}`,
    );
  };
  const onWrite = (error: unknown) => markUsable(error === null, error);
  const postgres = database ? createPostgresLeadStore({ database, onWrite }) : null;
  const store: LeadStore = postgres ?? createFolderLeadStore({ folder, onWrite });
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
  const drain =
    postgres && spool
      ? startSpoolDrain({
          spool,
          importLead: (lead) => postgres.importLead(lead),
          isOwnError: isLeadOwnError,
          onMoved: () => delivery.wake(),
          log,
        })
      : null;
  const directSends = createDirectSends(direct, log);

  /** Keeps `lead` in the database, or in the spool when it does not take it in time; the outcome, or why neither could. */
  const keepInDatabase = async (lead: Lead): Promise<KeepOutcome | { unkept: string }> => {
    if (!postgres || !spool) return { unkept: "no database" };
    const answer = await answerWithin(postgres.addLead(lead), KEEP_WAIT_MS);
    if (answer === "stored") {
      spoolLog.idle();
      return { kind: "stored", id: lead.id };
    }
    if (answer.error instanceof StoreFullError) return { unkept: storeFull(answer.error) };
    const late = answer.error === undefined;
    const cause = late ? `no answer within ${KEEP_WAIT_MS / 1000} s` : causeOf(answer.error);
    try {
      await spool.put(lead);
    } catch (error) {
      spoolLog.failed(spool.folder, causeOf(error));
      return {
        unkept: `the database did not take it (${cause}) and the spool could not be written (${causeOf(error)})`,
      };
    }
    spoolLog.kept(spool.folder, cause);
    logLeadState(lead, "spooled");
    drain?.wake();
    return { kind: "spooled", id: lead.id };
  };

  const storeFull = (error: StoreFullError) => {
    if (!full) {
      full = true;
      log(
        `lead store: ${place}: ${error.message}; new enquiries are sent directly and not kept until leads are delivered or removed (retention or by hand)`,
      );
    }
    return "the store is full";
  };

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
    if (stopped) return;
    delivery.start();
    drain?.start();
  };

  return {
    async keep(enquiry, source, privacyNotice) {
      const lead = newLead({
        id: randomUUID(),
        enquiry,
        destinations: configuredDestinations(routes),
        at: new Date(),
        source,
        privacyNotice,
      });
      let kept: KeepOutcome | { unkept: string };
      if (postgres) kept = await keepInDatabase(lead);
      else {
        kept = await store.add(enquiry, configuredDestinations(routes), source, privacyNotice).then(
          (stored): KeepOutcome => ({ kind: "stored", id: stored.id }),
          (error: unknown) => ({
            unkept: error instanceof StoreFullError ? storeFull(error) : causeOf(error),
          }),
        );
      }
      if ("kind" in kept) {
        if (kept.kind === "stored") {
          full = false;
          delivery.wake();
        }
        return kept;
      }
      return directSends.send(lead, kept.unkept);
    },
    async quarantine(enquiry, reason, source, privacyNotice) {
      try {
        return (await store.quarantine(enquiry, reason, source, privacyNotice)).id;
      } catch {
        // The store's write outcome (onWrite) already says whether it is usable.
        return null;
      }
    },
    stillKeeps: async (id) => spool?.holds(id) === true || store.has(id),
    directlySent: () => directSends.count(),
    isDeliverer: () => delivery.isDeliverer(),
    async health(now = Date.now()) {
      const written = store.lastWrite();
      if (!written || now - written.at >= PROBE_AFTER_MS) await store.probe();
      const counts = await store.counts(delivery.unwrittenOutcomes()).catch(() => null);
      const described = describeLeads({
        counts: counts ?? noLeads(),
        lastWrite: store.lastWrite(),
        maxLeads: MAX_LEADS,
        spooled: (await spool?.count()) ?? 0,
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
      await Promise.all([delivery.stop(), drain?.stop()]);
    },
  };
}

const causeOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * `work`'s answer within `ms`: `stored`, or its error; `{}` when it had not answered in time (it
 * goes on, its late answer dropped).
 */
async function answerWithin(work: Promise<unknown>, ms: number): Promise<"stored" | { error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ error?: unknown }>((resolve) => {
    timer = setTimeout(() => resolve({}), ms);
  });
  const settled = work.then(
    () => "stored" as const,
    (error: unknown) => ({ error }),
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
