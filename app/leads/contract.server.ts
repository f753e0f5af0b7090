/** What every lead store promises (the folder's and PostgreSQL's), and the limits both keep. */
import type { DestinationName } from "~/destinations/lookup.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import type { LeadSource } from "~/lead-parts/source";
import type { SpamReason } from "~/lead-parts/spam-reasons";
import type { DeliveryRecord, Lead } from "~/leads/lead";
import type { PrivacyNoticeRecord } from "~/privacy-notice/record";

/**
 * How many leads that have not reached the agency (`pending`, `inbox`, `failed`) a store
 * keeps at most, and how many files in all (about 20 MB): past it the oldest `sent` leads
 * make room, and when only undelivered ones are left, enquiries are not kept.
 */
export const MAX_LEADS = 10_000;

/** How many quarantined leads of one reason the store keeps; past it, the oldest of that reason go. */
export const MAX_SPAM_PER_REASON = 1_000;

/** The order `each` reads leads in: by the time received, then the id. */
export type LeadOrder = "oldest first" | "newest first";

/** A claimed lead, or when the next pending lead is due (ms; null when none waits). */
export type NextClaim = { lead: Lead } | { lead: null; dueAt: number | null };

/** What either store's maker takes besides where it keeps leads (tests narrow the limits and the clock). */
export interface LeadStoreOptions {
  maxLeads?: number;
  maxSpamPerReason?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** Told after every write and probe: null when it worked, the error when it did not. */
  onWrite?: (error: unknown) => void;
}

/** The outcome of the store's last write (a lead, or a probe when there was none lately). */
export interface WriteOutcome {
  ok: boolean;
  at: number;
  /** Why it failed, e.g. `ENOSPC: no space left on device`. */
  error?: string;
}

/**
 * What storing a lead by its id came to: `stored` now; `held` when the store holds that id
 * already (the same enquiry again: nothing written); `erased` when that id was erased (nothing
 * written: an erased lead never comes back).
 */
export type AddOutcome = "stored" | "held" | "erased";

export class StoreFullError extends Error {
  constructor(count: number) {
    super(`the lead store holds ${count} leads that have not reached the agency, its limit`);
    this.name = "StoreFullError";
  }
}

/** How many leads each state holds, for `/healthz` and `npm run leads -- --health`. */
export interface LeadCounts {
  pending: number;
  inbox: number;
  sent: number;
  failed: number;
  spam: number;
  /** Time (ms) the oldest `pending` lead was received; null when none is pending. */
  oldestPendingAt: number | null;
  /** That lead's id (the queue alert names it); null when none is pending. */
  oldestPendingId: string | null;
}

export interface Retention {
  /** Days a lead that is not `pending` is kept (ENQUIRY_RETENTION_DAYS), and an erasure record. */
  days: number;
  /** Days a quarantined lead is kept (ENQUIRY_SPAM_RETENTION_DAYS). */
  spamDays: number;
}

/**
 * What the server, the delivery loop and `npm run leads` need from a lead store. Two stores keep
 * it: the data folder (~/leads/folder/store.server, the default) and PostgreSQL (~/leads/postgres/store.server,
 * with DATABASE_URL).
 */
export interface LeadStore {
  /** Where the leads are kept, as log lines name it: the folder, or the database. */
  readonly folder: string;
  /**
   * Stores a new lead durably, due at once at each of `destinations` (`inbox` with none), and
   * returns it; throws when it cannot (StoreFullError at the cap).
   */
  add(
    enquiry: Enquiry,
    destinations: readonly DestinationName[],
    source?: LeadSource,
    privacyNotice?: PrivacyNoticeRecord,
  ): Promise<Lead>;
  /**
   * Stores `lead`, whose id the caller fixed (~/leads/lead-identity.server), durably and once by
   * that id; throws when it cannot (StoreFullError at the cap).
   */
  addLead(lead: Lead): Promise<AddOutcome>;
  /**
   * Keeps a lead a filter caught in the state `spam`, never delivered and outside the cap. Past
   * the cap of its reason, the oldest of that reason is removed (one log line each).
   */
  quarantine(
    enquiry: Enquiry,
    reason: SpamReason,
    source?: LeadSource,
    privacyNotice?: PrivacyNoticeRecord,
  ): Promise<Lead>;
  /** Writes a lead and all its records durably (an operator's retry or release); false (and nothing written) when it was erased. */
  save(lead: Lead): Promise<boolean>;
  /**
   * Writes one destination's record of a lead durably (undefined: the lead no longer goes there),
   * never touching another's, whatever this process last read; returns the lead as stored now,
   * or null (and nothing written) when it was erased.
   */
  saveDelivery(
    lead: Lead,
    destination: DestinationName,
    record: DeliveryRecord | undefined,
  ): Promise<Lead | null>;
  /**
   * Deletes a lead for good (a person's request): no process that still holds it writes it back.
   * Returns the destinations that may hold it, as the store knew them at the erasure: each whose
   * delivery began (`beginAttempt`), whatever came of it (in flight, timed out, failed,
   * delivered), in the order of DESTINATIONS; none when it was already gone.
   */
  erase(lead: Lead): Promise<DestinationName[]>;
  /**
   * Records durably that a send of `lead` to `destination` begins, before it goes out, so an
   * erasure from then on names that destination; false, and nothing to send, when the lead was
   * erased meanwhile. Throws when it cannot be recorded: the lead is then not sent.
   */
  beginAttempt(lead: Lead, destination: DestinationName): Promise<boolean>;
  /** Whether the lead was erased (by any process); this store then forgets it. */
  isErased(lead: Lead): Promise<boolean>;
  /** Whether the lead `id` is still kept: not erased, not removed (by any process). */
  has(id: string): Promise<boolean>;
  /**
   * Takes the lead due soonest (then the oldest) at `destination` for one send, right before it,
   * leaving out the leads `except` names and those another deliverer holds there: the store picks
   * it, so no deliverer keeps the queue in memory. Without one due, says when the next is due.
   */
  claimNext(destination: DestinationName, except: ReadonlySet<string>): Promise<NextClaim>;
  /** Makes every pending delivery due now (a deliverer just took over: it tries them at once). */
  hurryPending(): Promise<void>;
  /**
   * Gives the leads a release before destinations stored (PostgreSQL, during a rolling deploy)
   * their destinations: EmailJS as they stored it, plus the others of `configured` (once each).
   */
  adopt(configured: readonly DestinationName[]): Promise<void>;
  /** Brings what this store knows up to date (the folder rereads its files; PostgreSQL has nothing to reread). */
  scan(): Promise<unknown>;
  /** Every lead, oldest first (the operator's list). */
  list(): Promise<Lead[]>;
  /**
   * Every lead received at or after `since` (all without it), oldest first (or newest first),
   * read a few at a time as the caller takes them, so an export or a listing of the whole store
   * holds a page in memory, not the store.
   */
  each(since?: Date, order?: LeadOrder): AsyncIterable<Lead>;
  /** The count of each state; `unwrittenOutcomes` (delivery's, by lead id) win over what is stored. */
  counts(unwrittenOutcomes?: ReadonlyMap<string, Lead>): Promise<LeadCounts>;
  /** Removes leads past their retention (never `pending` ones) and old erasure records; returns how many leads. */
  prune(retention: Retention): Promise<number>;
  /** How the last write went; null before any. */
  lastWrite(): WriteOutcome | null;
  /** A small write (or round trip), so `lastWrite` tells whether the store takes writes now. */
  probe(): Promise<WriteOutcome>;
}

/** The counts of `leads`, each replaced by its override when there is one. */
export function countLeads(
  leads: readonly Lead[],
  unwrittenOutcomes?: ReadonlyMap<string, Lead>,
): LeadCounts {
  const counts = noLeads();
  for (const stored of leads) {
    const lead = unwrittenOutcomes?.get(stored.id) ?? stored;
    counts[lead.state] += 1;
    if (lead.state === "pending") countOldestPending(counts, lead.id, Date.parse(lead.receivedAt));
  }
  return counts;
}

/** The counts of an empty store. */
export function noLeads(): LeadCounts {
  return { pending: 0, inbox: 0, sent: 0, failed: 0, spam: 0, oldestPendingAt: null, oldestPendingId: null };
}

/** Keeps the `pending` lead `id` received at `at` as the oldest when it is older than the one kept. */
export function countOldestPending(counts: LeadCounts, id: string, at: number): void {
  if (counts.oldestPendingAt !== null && counts.oldestPendingAt <= at) return;
  counts.oldestPendingAt = at;
  counts.oldestPendingId = id;
}
