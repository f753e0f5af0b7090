import { createDatabase, type Database } from "~/db/database.server";
import { MIGRATIONS } from "~/db/migrations.server";
import { createSentNotices, type SentNotices } from "~/enquiry/sent-notice.server";
import type { SpamRules } from "~/enquiry/spam.server";
import type { Env } from "~/env.server";
import { type Budget, createBudget, createRateLimiter, type RateLimiter } from "~/http/budget.server";
import { createLeadService, type LeadService } from "~/leads/leads.server";
import { selectTransport } from "~/mail/transport.server";
import type { MailTransport } from "~/mail/types";
import { StaticDocumentCache } from "~/shared-documents/document-cache.server";
import { createFastPath, type FastPath } from "~/shared-documents/fast-path.server";
import { createDatabaseVitalsStore } from "~/vitals/database-store.server";
import { createBeaconBudget } from "~/vitals/rate-limit.server";
import { createVitalsStore, PRUNE_INTERVAL_MS, type VitalsStore } from "~/vitals/store.server";

/** What the server creates once and every loader and action reads from its context. */
export interface AppServices {
  leads: LeadService;
  /** EmailJS, or null when none is configured (the lead store is then the inbox). */
  mail: MailTransport | null;
  enquiryBudget: Budget;
  /** The success notice's signed single-use tokens (the landing URL after an enquiry). */
  notices: SentNotices;
  /** ENQUIRY_THROTTLE: one accepted enquiry per known client per that many seconds (0: off). */
  enquiryThrottle: RateLimiter;
  /** ENQUIRY_BLOCK_LIST and ENQUIRY_BLOCK_HEADLESS: what the quarantine catches besides the honeypot. */
  spamRules: SpamRules;
  beaconBudget: Budget;
  vitals: VitalsStore;
  /** Shared documents, rendered once (~/shared-documents). */
  documents: StaticDocumentCache;
  fastPath: FastPath;
}

declare module "@remix-run/server-runtime" {
  interface AppLoadContext extends AppServices {
    /** The request's client address as TRUST_PROXY allows it to be known; null: unknown. */
    client: string | null;
  }
}

/** Creates the services; nothing runs until `start()`, and `stop()` lets go of everything. */
export function createServices(env: Env) {
  // With DATABASE_URL, what replicas must agree on lives in PostgreSQL; without it, in the data folder.
  const database: Database | null = env.DATABASE_URL
    ? createDatabase({ url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE, migrations: MIGRATIONS })
    : null;
  const mail = selectTransport(env);
  const leads = createLeadService(env, mail, database);
  const vitals = database
    ? createDatabaseVitalsStore(database)
    : createVitalsStore({ dir: env.ENQUIRY_STORE_DIR, maxBytes: env.VITALS_MAX_MB * 1024 * 1024 });
  const windowMs = env.ENQUIRY_RATE_WINDOW * 1000;
  const services: AppServices = {
    leads,
    mail,
    enquiryBudget: createBudget({
      perClient: { limit: env.ENQUIRY_RATE_LIMIT, windowMs },
      site: { limit: env.ENQUIRY_FLOOD_LIMIT, windowMs },
    }),
    notices: createSentNotices({ secret: env.NOTICE_SECRET, storeDir: env.ENQUIRY_STORE_DIR, database }),
    enquiryThrottle: createRateLimiter({
      limit: env.ENQUIRY_THROTTLE > 0 ? 1 : 0,
      windowMs: env.ENQUIRY_THROTTLE * 1000,
    }),
    spamRules: { blockList: env.ENQUIRY_BLOCK_LIST, blockHeadless: env.ENQUIRY_BLOCK_HEADLESS },
    beaconBudget: createBeaconBudget(env),
    vitals,
    documents: new StaticDocumentCache(),
    fastPath: createFastPath(),
  };
  let pruning: NodeJS.Timeout | undefined;
  // Expired state is removed on a timer, even on a replica no request reaches.
  const prune = () => {
    void vitals.prune();
    services.notices.sweep().catch(() => {});
  };
  return {
    services,
    database,
    start() {
      database?.start();
      leads.start();
      prune();
      database?.ready().then(prune, () => {});
      pruning = setInterval(prune, PRUNE_INTERVAL_MS).unref();
    },
    async stop() {
      clearInterval(pruning);
      await leads.stop();
      await database?.stop();
    },
  };
}
