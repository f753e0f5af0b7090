/** The services the server creates once (leads, their destinations, limits, notices, metrics, alerts) and starts and stops together. */
import { hostname } from "node:os";
import { campaignsFolder } from "~/campaigns/folder-store.server";
import { createLandingLimits } from "~/campaigns/landing-limits.server";
import { type CampaignCounts, createCampaignCounts } from "~/campaigns/service.server";
import { createWeeklySummary } from "~/campaigns/weekly-summary.server";
import { privacyFactsFrom } from "~/content/privacy-facts.server";
import { createDatabase, type Database } from "~/db/database.server";
import { readMigrationsOrExit } from "~/db/migrations.server";
import { type AlertPoster, createAlertPoster, postAlertOnce } from "~/destinations/alert.server";
import { withdrawalNotTakenMessage, withdrawnMessage } from "~/destinations/alert-messages";
import { LONGEST_DESTINATION_TIMEOUT_MS } from "~/destinations/lookup.server";
import { createEnquiryLimits, type EnquiryLimits } from "~/enquiry/limits.server";
import { createPostgresSubmissions, type PostgresSubmissions } from "~/enquiry/postgres-submissions.server";
import {
  createPrivacyNoticeRenderings,
  type PrivacyNoticeRenderings,
} from "~/enquiry/privacy-notice-renderings.server";
import { createSentNotices, type SentNotices, SWEEP_INTERVAL_MS } from "~/enquiry/sent-notice.server";
import type { SpamRules } from "~/enquiry/spam.server";
import type { Env } from "~/env.server";
import { createBatchedWrites } from "~/http/batched-writes.server";
import { databaseLimitStore } from "~/http/database-limits.server";
import { createLeadAlerts, type LeadAlerts } from "~/leads/alerts.server";
import { createLeadService, type LeadService } from "~/leads/lead-service.server";
import { LEASE_MARGIN_MS, LEASE_SECONDS } from "~/leads/postgres/store.server";
import type { Withdrawal } from "~/leads/withdrawals.server";
import { privacyNoticeRenderings } from "~/privacy-notice/rendering.server";
import { SharedDocumentCache } from "~/shared-documents/document-cache.server";
import { createFastPath, type FastPath } from "~/shared-documents/fast-path.server";
import { createFolderVitalsStore } from "~/vitals/folder-store.server";
import type { TapRecord, VitalsRecord } from "~/vitals/metrics";
import { createPostgresVitalsStore } from "~/vitals/postgres-store.server";
import { type BeaconLimits, createBeaconLimits } from "~/vitals/rate-limit.server";
import { PRUNE_INTERVAL_MS, type VitalsStore } from "~/vitals/store.server";
import { createWithdrawalLimits, type WithdrawalLimits } from "~/withdrawal/limits.server";
import { createLeadDestinations } from "./lead-destinations";

/** What the server creates once and every loader and action reads from its context. */
export interface AppServices {
  leads: LeadService;
  /** The flood level, the per-client budget and the throttle. */
  enquiryLimits: EnquiryLimits;
  /** The withdrawal page's tries: per reference, and per client or for the whole site. */
  withdrawalLimits: WithdrawalLimits;
  /** The success notice's signed single-use tokens (the landing URL after an enquiry). */
  notices: SentNotices;
  /** With DATABASE_URL: the double-submit memory every replica shares; null: this process's own only. */
  submissions: PostgresSubmissions | null;
  /** Every privacy notice text the site rendered: what an enquiry's posted hash is checked against. */
  privacyNotices: PrivacyNoticeRenderings;
  /** ENQUIRY_BLOCK_LIST and ENQUIRY_BLOCK_HEADLESS: what the quarantine catches besides the honeypot. */
  spamRules: SpamRules;
  beaconLimits: BeaconLimits;
  vitals: VitalsStore;
  /** Visits, enquiries and WhatsApp taps per day, landing page and campaign (~/campaigns). */
  campaigns: CampaignCounts;
  /** Shared documents, rendered once (~/shared-documents). */
  sharedDocuments: SharedDocumentCache;
  fastPath: FastPath;
}

declare module "@remix-run/server-runtime" {
  interface AppLoadContext extends AppServices {
    /** The request's client address as TRUST_PROXY allows it to be known; null: unknown. */
    client: string | null;
  }
}

// A claim outlives the one send it covers, so no other replica sends that lead meanwhile.
if (LEASE_SECONDS * 1000 < LONGEST_DESTINATION_TIMEOUT_MS + LEASE_MARGIN_MS) {
  throw new Error("LEASE_SECONDS must outlast each destination's time limit and the write of the outcome");
}

/**
 * The team chat's alerts when ALERT_WEBHOOK_URL is set: the poster (its own queue and retries)
 * and what tells it, watching `leads` and the database of this process.
 */
function chatAlerts(
  env: Env,
  leads: LeadService,
  database: Database | null,
): { poster: AlertPoster; alerts: LeadAlerts } | null {
  if (env.ALERT_WEBHOOK_URL === undefined) return null;
  const poster = createAlertPoster({ url: env.ALERT_WEBHOOK_URL });
  const alerts = createLeadAlerts({
    post: poster.post,
    alertAfterMinutes: env.ALERT_AFTER_MINUTES,
    replica: `${hostname()} (pid ${process.pid})`,
    leads,
    database,
  });
  return { poster, alerts };
}

/** Creates the services; nothing runs until `start()`, and `stop()` lets go of everything. */
export function createServices(env: Env) {
  // With DATABASE_URL, what replicas must agree on lives in PostgreSQL; without it, in the data folder.
  const database: Database | null = env.DATABASE_URL
    ? createDatabase({
        url: env.DATABASE_URL,
        poolSize: env.DATABASE_POOL_SIZE,
        migrations: readMigrationsOrExit("database"),
      })
    : null;
  // Delivery tells the alerts and the webhook's lead.failed of a give-up; the alerts read the leads it delivers.
  let chat: ReturnType<typeof chatAlerts> = null;
  const destinations = createLeadDestinations(env);
  // With a database the enquiry's and withdrawal's limits count once for the whole site; without, in this process's memory.
  const limitStore = database ? databaseLimitStore(database) : undefined;
  const campaigns = createCampaignCounts({
    config: env,
    database,
    // A beacon's budgets are counted by each server alone, as a guard on its own work: one
    // database round trip each would cost more than the beacon (docs/decisions/052-beacon-before-the-app.md).
    limits: createLandingLimits(env),
  });
  // The team chat hears of each withdrawn lead it must clean up, from the store's notices (retried, once).
  const chatUrl = env.ALERT_WEBHOOK_URL;
  const tellers = chatUrl
    ? {
        ...destinations.tellers,
        chat: (withdrawn: Withdrawal) => postAlertOnce(chatUrl, withdrawnMessage(withdrawn)),
      }
    : destinations.tellers;
  const leads = createLeadService(
    env,
    {
      ...destinations,
      tellers,
      onNoticeGaveUp({ withdrawal, target, attempts, cause }) {
        if (target === "chat") return;
        chat?.poster.post(
          withdrawalNotTakenMessage({ leadId: withdrawal.leadId, destination: target, attempts, cause }),
        );
      },
    },
    database,
    console.error,
    (gaveUp) => {
      destinations.onGaveUp(gaveUp);
      chat?.alerts.gaveUp(gaveUp);
    },
    campaigns.leads,
  );
  chat = chatAlerts(env, leads, database);
  const vitals = database
    ? createPostgresVitalsStore(database)
    : createFolderVitalsStore({ dir: env.ENQUIRY_STORE_DIR, maxBytes: env.VITALS_MAX_MB * 1024 * 1024 });
  // Beacons' metrics wait for the next batch (~/http/batched-writes.server), written as the server stops too.
  const beaconMetrics = createBatchedWrites<VitalsRecord | TapRecord>({
    name: "field metrics",
    write: (records) => vitals.append(records),
  });
  const notices = createSentNotices({ secret: env.NOTICE_SECRET, storeDir: env.ENQUIRY_STORE_DIR, database });
  const submissions = database ? createPostgresSubmissions(database) : null;
  // The texts this server's page shows, filled with its configuration, recorded for every server.
  const privacyNotices = createPrivacyNoticeRenderings({
    own: privacyNoticeRenderings(privacyFactsFrom(env)),
    storeDir: env.ENQUIRY_STORE_DIR,
    database,
  });
  const services: AppServices = {
    leads,
    enquiryLimits: createEnquiryLimits(env, limitStore),
    withdrawalLimits: createWithdrawalLimits(env, limitStore),
    notices,
    submissions,
    privacyNotices,
    spamRules: { blockList: env.ENQUIRY_BLOCK_LIST, blockHeadless: env.ENQUIRY_BLOCK_HEADLESS },
    beaconLimits: createBeaconLimits(env),
    vitals,
    campaigns,
    sharedDocuments: new SharedDocumentCache(),
    fastPath: createFastPath(),
  };
  // The week's campaign summary goes to the team chat, when there is one.
  const summary = chat
    ? createWeeklySummary({
        when: env.REPORT_WEEKLY,
        timeZone: env.REPORT_TIME_ZONE,
        store: campaigns.store,
        post: chat.poster.post,
        database,
        folder: campaignsFolder(env.ENQUIRY_STORE_DIR),
      })
    : null;
  let pruning: NodeJS.Timeout | undefined;
  let sweeping: NodeJS.Timeout | undefined;
  // Expired state goes on a timer too, even on a replica no request reaches.
  const prune = () => {
    void vitals.prune();
    void campaigns.prune();
  };
  const sweep = () => {
    notices.sweep().catch(() => {});
    submissions?.sweep().catch(() => {});
  };
  return {
    services,
    beaconMetrics,
    database,
    /** Where limits count: the database's store with DATABASE_URL; undefined: each limit's memory. */
    limitStore,
    start() {
      database?.start();
      leads.start();
      privacyNotices.start();
      chat?.alerts.start();
      summary?.start();
      // Metrics age out even when no beacon arrives to trigger a rotation.
      prune();
      pruning = setInterval(prune, PRUNE_INTERVAL_MS).unref();
      // Markers (or rows) of expired notice tokens go even when no later token is redeemed.
      sweep();
      sweeping = setInterval(sweep, SWEEP_INTERVAL_MS).unref();
      // The first round above found no database yet: run it again once connected.
      database?.ready().then(
        () => {
          prune();
          sweep();
        },
        () => {},
      );
    },
    /** `answered`: the last request is answered; what beacons brought is written after it, before the store closes. */
    async stop(answered: Promise<void> = Promise.resolve()) {
      const beaconsWritten = answered.then(() => Promise.all([beaconMetrics.flush(), campaigns.flush()]));
      summary?.stop();
      clearInterval(pruning);
      clearInterval(sweeping);
      chat?.alerts.stop();
      // An alert still queued is dropped: only one being posted is finished.
      await Promise.all([leads.stop(), chat?.poster.stop(), privacyNotices.stop(), beaconsWritten]);
      await destinations.stop();
      await database?.stop();
    },
  };
}
