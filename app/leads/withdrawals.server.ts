/**
 * A visitor's withdrawal of consent (/privacy/withdraw): what it keeps of each lead it erased, and
 * what both stores of withdrawals promise (the folder's and PostgreSQL's).
 * Why: docs/decisions/048-withdrawal-on-the-site.md.
 */
import { type DestinationName, destinationNamed } from "~/destinations/lookup.server";
import type { DeliveryRecord } from "~/leads/lead";

/** Who hears of a withdrawn lead: a destination that hears of erasures (the webhook), or the team chat. */
export type NoticeTarget = DestinationName | "chat";

/** One lead a withdrawal erased, as kept for the team's clean-up: nothing its sender wrote. */
export interface Withdrawal {
  leadId: string;
  /** ISO time of the withdrawal. */
  withdrawnAt: string;
  /** The destinations that may hold it (their delivery of it began), in the order of DESTINATIONS. */
  holding: DestinationName[];
  /** ISO time an operator marked its clean-up done; null until then. */
  doneAt: string | null;
  /** Each target told of it, or still to tell: its record (pending, sent, failed; retried as a delivery is). */
  notices: Partial<Record<NoticeTarget, DeliveryRecord>>;
}

/** What a visitor gave, as the page read it: an enquiry's reference (`NRM-7KQ2-M9XD`) and an e-mail address (lower case). */
export interface WithdrawalRequest {
  reference: string;
  address: string;
}

export interface WithdrawOptions {
  at: Date;
  /** Whether the team chat hears of withdrawn leads (ALERT_WEBHOOK_URL): see noticeTargets. */
  chat: boolean;
  /**
   * Asked right before the erasure is committed (PostgreSQL): false rolls it back, so a
   * withdrawal the visitor was told failed never lands late. The folder does not ask.
   */
  stillWanted(): boolean;
}

/** The ids a withdrawal erased (none when nothing matched), or `given up` (rolled back: nothing erased). */
export type WithdrawOutcome = { erased: string[] } | "given up";

/** One attempt to tell `target` of `withdrawal`, as the notice loop makes it: the record after it. */
export type Tell = (
  withdrawal: Withdrawal,
  target: NoticeTarget,
  record: DeliveryRecord,
) => Promise<DeliveryRecord>;

/** A notice was told (whatever came of it), or none was due: when the next one is (ms; null: none waits). */
export type TellOutcome = { told: true } | { told: false; dueAt: number | null };

/** What an operator's `withdrawn-done ID` came to. */
export type DoneOutcome = "done" | "already done" | "unknown";

/** The withdrawals of one day (UTC, `2026-12-07`): how many erased something. */
export interface WithdrawalDay {
  day: string;
  withdrawals: number;
}

export interface WithdrawalStore {
  /**
   * When the lead `request.reference` names was sent with `request.address`, erases every lead of
   * that address (as `npm run leads -- erase EMAIL` does) and records each: its id, when, the
   * destinations that may hold it, a notice for each of its noticeTargets, and one more withdrawal
   * in the day's count; all of it durable before it returns. The lookup is the same whether or not
   * anything matches.
   */
  withdraw(request: WithdrawalRequest, options: WithdrawOptions): Promise<WithdrawOutcome>;
  /**
   * Takes the notice due soonest at one of `targets` (no other process takes it meanwhile: a row
   * lock, or the folder's deliverer lock), makes one attempt with `tell`, and writes what it
   * returns.
   */
  tellNext(targets: readonly NoticeTarget[], tell: Tell): Promise<TellOutcome>;
  /** The withdrawals whose clean-up no operator has marked done, oldest first. */
  open(): Promise<Withdrawal[]>;
  /** Marks the clean-up of lead `leadId`'s withdrawal done. */
  markDone(leadId: string, at: Date): Promise<DoneOutcome>;
  /** The count of each day with a withdrawal since `since`, oldest first. */
  perDay(since: Date): Promise<WithdrawalDay[]>;
  /** Removes the withdrawals marked done whose notices are settled: their ids served their purpose. */
  prune(): Promise<void>;
}

/**
 * Who must hear of a lead a withdrawal erased: each destination that may hold it and hears of
 * erasures (the webhook's `lead.erased`), and the team chat (when `chat`: ALERT_WEBHOOK_URL) when
 * one that cannot be told may hold it (EmailJS's mail, which the team deletes by hand).
 */
export function noticeTargets(holding: readonly DestinationName[], chat: boolean): NoticeTarget[] {
  const told = holding.filter((name) => destinationNamed(name).erasure.told);
  return chat && cleanedByHand(holding) ? [...told, "chat"] : told;
}

/**
 * Whether the team must erase a copy by hand: a destination that cannot be told may hold it
 * (EmailJS's mail in the agency's mailbox). Without one, a withdrawal is done from the start.
 */
export function cleanedByHand(holding: readonly DestinationName[]): boolean {
  return holding.some((name) => !destinationNamed(name).erasure.told);
}

/** A notice's first record: due at once, with 72 h of retries from `at`. */
export function newNotice(at: Date): DeliveryRecord {
  const time = at.toISOString();
  return { state: "pending", attempts: 0, lastError: null, nextAttemptAt: time, queuedAt: time };
}

/** The notice targets a record may name, for reading them back from a store. */
export function isNoticeTarget(name: string, destinations: readonly string[]): name is NoticeTarget {
  return name === "chat" || destinations.includes(name);
}
