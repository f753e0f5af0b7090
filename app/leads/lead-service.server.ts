/**
 * The lead service: picks the store and lock from the environment, and gives the app one way to
 * keep, count and deliver leads.
 */
import { randomUUID } from "node:crypto";
import type { PoolClient } from "pg";
import { type Database, DatabaseUnavailableError } from "~/db/database.server";
import { describeDatabaseError } from "~/db/error-words.server";
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
import {
  createWithdrawalNotices,
  type NoticeGaveUp,
  type WithdrawalTellers,
} from "~/leads/delivery/withdrawal-notices.server";
import { createDirectSends, type DirectOutcome, type DirectSenders } from "~/leads/direct-sends.server";
import { createFolderDelivererLock, delivererLockPath } from "~/leads/folder/lock.server";
import { createFolderLeadStore, leadsFolder } from "~/leads/folder/store.server";
import { createFolderWithdrawals, withdrawalsFolder } from "~/leads/folder/withdrawals.server";
import { describeLeads, type ServerLeadsHealth } from "~/leads/health-report";
import { type Lead, logLeadState, newLead } from "~/leads/lead";
import { createLeadIdentity, MAX_GENERATIONS } from "~/leads/lead-identity.server";
import { importLeadFolder } from "~/leads/postgres/import.server";
import { isLeadOwnError } from "~/leads/postgres/insert.server";
import { createPostgresDelivererLock } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { createPostgresWithdrawals } from "~/leads/postgres/withdrawals.server";
import { createLeadSpool, createSpoolLog, spoolFolder, startSpoolDrain } from "~/leads/spool.server";
import type { WithdrawalRequest, WithdrawalStore } from "~/leads/withdrawals.server";
import type { PrivacyNoticeRecord } from "~/privacy-notice/record";

export type { DirectSenders } from "~/leads/direct-sends.server";

export type { LeadsHealth, ServerLeadsHealth } from "~/leads/health-report";

/**
 * What became of an enquiry given to `keep`: stored; spooled (the database did not take it in
 * time: it moves there when the database answers); sent directly to the destinations `to` (kept
 * nowhere); or kept and sent nowhere (`reachable`: some destination could take a direct send,
 * and none did; false: none can, which the operator must fix).
 */
export type KeepOutcome = { kind: "stored" | "spooled"; id: string; duplicate: boolean } | DirectOutcome;

/** What one way of keeping a lead came to: kept, its id erased, or why it could not. */
type Kept = Exclude<KeepOutcome, DirectOutcome> | "erased" | { unkept: string };

/**
 * How long a visitor waits for the database to take a new lead before it goes to the spool: the
 * database's own lock timeout. An insert not done by then is rolled back when it is.
 */
export const KEEP_WAIT_MS = 2_000;

/**
 * How long a visitor's withdrawal waits for the database (its lookup, erasures and records in one
 * transaction) before it is answered "try again": the database's lock timeout and a margin. One
 * not done by then is rolled back when it comes to its COMMIT.
 */
export const WITHDRAW_WAIT_MS = 3_000;

/**
 * What a visitor's withdrawal came to: `answered`, whether or not anything matched (an erasure is
 * durable and its notices are recorded); `unavailable`, nothing erased (the store failed, or the
 * database did not answer within WITHDRAW_WAIT_MS).
 */
export type WithdrawAnswer = "answered" | "unavailable";

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
  /**
   * Whether the lead `id` is still kept (in the store or this process's spool): false once it was
   * erased (by any process) or removed; true when the store cannot say in time.
   */
  stillKeeps(id: string): Promise<boolean>;
  /**
   * A visitor's withdrawal (/privacy/withdraw): when the reference's lead has that address, every
   * lead of the address is erased and recorded for the team's clean-up, and each destination that
   * may hold one is told in the background (never while the visitor waits).
   */
  withdraw(request: WithdrawalRequest): Promise<WithdrawAnswer>;
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

/**
 * How the stores count a lead the first time they keep it (the campaign counts,
 * ~/campaigns/service.server): PostgreSQL in the insert's transaction, the folder after its write.
 */
export interface LeadCounting {
  inTransaction(client: PoolClient, lead: Lead): Promise<void>;
  afterWrite(lead: Lead): Promise<void>;
}

type Config = Pick<
  Env,
  | "ENQUIRY_STORE_DIR"
  | "ENQUIRY_SEND_INTERVAL_MS"
  | "ENQUIRY_RETENTION_DAYS"
  | "ENQUIRY_SPAM_RETENTION_DAYS"
  | "NOTICE_SECRET"
>;

/**
 * The lead pipeline, created once by the server: the wiring only, the behaviour lives in the
 * stores, the locks and the delivery loop. With a database (DATABASE_URL) leads live there and
 * the folder's leads are imported once; without one, in ENQUIRY_STORE_DIR.
 */
export function createLeadService(
  config: Config,
  /**
   * Where delivery sends leads, how each destination takes a direct send, who hears of a
   * withdrawn lead (the destinations that hear of erasures, and the team chat when configured),
   * and who is told when one of those gives up.
   */
  destinations: {
    routes: DestinationRoutes;
    direct?: DirectSenders;
    tellers?: WithdrawalTellers;
    onNoticeGaveUp?: (gaveUp: NoticeGaveUp) => void;
  },
  database: Database | null = null,
  log: (line: string) => void = console.error,
  /** Told once each time a destination gives up on a lead (alerts, `lead.failed`). */
  onGaveUp?: (gaveUp: GaveUp) => void,
  counting?: LeadCounting,
): LeadService {
  const { routes, direct = {}, tellers = {} } = destinations;
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
  const postgres = database
    ? createPostgresLeadStore({ database, onWrite, countLead: counting?.inTransaction })
    : null;
  const { store, withdrawals } = ((): { store: LeadStore; withdrawals: WithdrawalStore } => {
    if (database && postgres)
      return { store: postgres, withdrawals: createPostgresWithdrawals({ database }) };
    const inFolder = createFolderLeadStore({ folder, onWrite, countLead: counting?.afterWrite });
    const withdrawalFolder = withdrawalsFolder(config.ENQUIRY_STORE_DIR);
    return {
      store: inFolder,
      withdrawals: createFolderWithdrawals({ store: inFolder, folder: withdrawalFolder, log }),
    };
  })();
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
  // With the folder only the deliverer tells; with PostgreSQL each notice's row lock decides.
  const notices = createWithdrawalNotices({
    store: withdrawals,
    tellers,
    mayTell: () => postgres !== null || delivery.isDeliverer(),
    onGaveUp: destinations.onNoticeGaveUp,
    log,
  });
  const identity = createLeadIdentity(config.NOTICE_SECRET);

  /**
   * Keeps `lead` in the database, or in the spool when it does not take it in time; the outcome,
   * `erased` when its id was erased, or why neither could keep it. An insert not done in time is
   * given up: rolled back when it comes to its COMMIT, so the lead lands only where it went
   * instead (the spool, which moves it in by its id; or a direct send). One whose COMMIT was
   * already on its way is waited for: its answer says whether the database holds it.
   */
  const keepInDatabase = async (lead: Lead): Promise<Kept> => {
    if (!postgres || !spool) return { unkept: "no database" };
    const insert: { fate: "waiting" | "committing" | "given up" } = { fate: "waiting" };
    const inserted = postgres.addLeadWhileWanted(lead, () => {
      if (insert.fate === "given up") return false;
      insert.fate = "committing";
      return true;
    });
    let answer = await answerWithin(inserted, KEEP_WAIT_MS);
    if ("late" in answer) {
      if (insert.fate === "committing") answer = await answerWithin(inserted, Number.POSITIVE_INFINITY);
      else insert.fate = "given up";
    }
    if ("outcome" in answer && answer.outcome !== "given up") {
      spoolLog.idle();
      if (answer.outcome === "erased") return "erased";
      return { kind: "stored", id: lead.id, duplicate: answer.outcome === "held" };
    }
    if ("error" in answer && answer.error instanceof StoreFullError)
      return { unkept: storeFull(answer.error) };
    const cause = "error" in answer ? causeOf(answer.error) : `no answer within ${KEEP_WAIT_MS / 1000} s`;
    let spooled: boolean;
    try {
      spooled = await spool.put(lead);
    } catch (error) {
      spoolLog.failed(spool.folder, causeOf(error));
      return {
        unkept: `the database did not take it (${cause}) and the spool could not be written (${causeOf(error)})`,
      };
    }
    spoolLog.kept(spool.folder, cause);
    if (spooled) logLeadState(lead, "spooled");
    drain?.wake();
    return { kind: "spooled", id: lead.id, duplicate: !spooled };
  };

  /** Keeps `lead` in the folder store (no database): the outcome, `erased`, or why it could not. */
  const keepInFolder = (lead: Lead): Promise<Kept> =>
    store.addLead(lead).then(
      (outcome): Kept =>
        outcome === "erased" ? "erased" : { kind: "stored", id: lead.id, duplicate: outcome === "held" },
      (error: unknown) => ({ unkept: error instanceof StoreFullError ? storeFull(error) : causeOf(error) }),
    );

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
    notices.start();
  };

  return {
    async keep(enquiry, source, privacyNotice) {
      const at = new Date();
      const leadOf = (generation: number) =>
        newLead({
          // An enquiry whose every id of its window was erased is kept under a random one.
          id:
            generation < MAX_GENERATIONS
              ? identity.idFor("kept", enquiry, at.getTime(), generation)
              : randomUUID(),
          enquiry,
          destinations: configuredDestinations(routes),
          at,
          source,
          privacyNotice,
        });
      for (let generation = 0; ; generation += 1) {
        const lead = leadOf(generation);
        const kept = postgres ? await keepInDatabase(lead) : await keepInFolder(lead);
        // The same enquiry was kept before and erased since: it is a new lead, under the next id.
        if (kept === "erased") continue;
        if ("kind" in kept) {
          if (kept.kind === "stored" && !kept.duplicate) {
            full = false;
            delivery.wake();
          }
          return kept;
        }
        return directSends.send(lead, kept.unkept);
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
    // When the store cannot say within KEEP_WAIT_MS (the database is down, frozen or locked),
    // the earlier outcome stands: the same enquiry again has the same id, kept once either way.
    async stillKeeps(id) {
      if (spool?.holds(id)) return true;
      const answer = await answerWithin(store.has(id), KEEP_WAIT_MS);
      return "outcome" in answer ? answer.outcome : true;
    },
    async withdraw(request) {
      // A lead in this replica's spool is in no store yet, so a withdrawal could not find it.
      const spooled = (await spool?.count()) ?? 0;
      if (spooled > 0) {
        log(
          `withdrawals: ${spooled} ${spooled === 1 ? "lead waits" : "leads wait"} in the spool ${spool?.folder} for the database; the visitor is asked to try again`,
        );
        return "unavailable";
      }
      // Given up while it waits: rolled back when it comes to its COMMIT; one whose COMMIT is
      // on its way is waited for, as its answer says whether the database holds it.
      const commit: { fate: "waiting" | "committing" | "given up" } = { fate: "waiting" };
      const work = withdrawals.withdraw(request, {
        at: new Date(),
        chat: tellers.chat !== undefined,
        stillWanted() {
          if (commit.fate === "given up") return false;
          commit.fate = "committing";
          return true;
        },
      });
      let answer = await answerWithin(work, postgres ? WITHDRAW_WAIT_MS : Number.POSITIVE_INFINITY);
      if ("late" in answer) {
        if (commit.fate !== "committing") {
          commit.fate = "given up";
          log(
            `withdrawals: ${place} did not answer within ${WITHDRAW_WAIT_MS / 1000} s; the visitor is asked to try again`,
          );
          return "unavailable";
        }
        answer = await answerWithin(work, Number.POSITIVE_INFINITY);
      }
      if ("error" in answer) {
        if (!(answer.error instanceof DatabaseUnavailableError))
          log(
            `withdrawals: cannot withdraw in ${place} (${postgres ? describeDatabaseError(answer.error) : causeOf(answer.error)}); the visitor is asked to try again`,
          );
        return "unavailable";
      }
      if ("late" in answer || answer.outcome === "given up") return "unavailable";
      if (answer.outcome.erased.length > 0) {
        log(JSON.stringify({ event: "withdrawal", erased: answer.outcome.erased }));
        notices.wake();
      }
      return "answered";
    },
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
      notices.start();
      void store.probe();
    },
    async stop() {
      stopped = true;
      await Promise.all([delivery.stop(), drain?.stop(), notices.stop()]);
    },
  };
}

const causeOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `work`'s outcome or error within `ms`; `late` when it had not answered in time (it goes on). */
async function answerWithin<T>(
  work: Promise<T>,
  ms: number,
): Promise<{ outcome: T } | { error: unknown } | { late: true }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ late: true }>((resolve) => {
    if (Number.isFinite(ms)) timer = setTimeout(() => resolve({ late: true }), ms);
  });
  const settled = work.then(
    (outcome) => ({ outcome }),
    (error: unknown) => ({ error }),
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
