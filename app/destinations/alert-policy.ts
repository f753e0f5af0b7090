/**
 * When the team chat hears of trouble: a destination giving up, a queue waiting too long, the
 * database unreachable, leads sent directly.
 */
import {
  databaseBackMessage,
  databaseUnreachableMessage,
  directSendsMessage,
  furtherFailuresMessage,
  gaveUpMessage,
  queueClearMessage,
  queueWaitingMessage,
} from "~/destinations/alert-messages";
import type { DeliveryError } from "~/destinations/destination";
import type { DestinationName } from "~/destinations/lookup.server";

/** Failures at a destination within this long of its alert come as one follow-up; also the reminder period. */
export const ALERT_HOUR_MS = 60 * 60_000;
/** A database unreachable this long is told; a shorter blip is not. */
export const DATABASE_ALERT_AFTER_MS = 5 * 60_000;

/** The oldest `pending` lead: its id, and since when it waits (ms since the epoch). */
export interface OldestPending {
  id: string;
  since: number;
  /** How many leads are `pending` in all. */
  waiting: number;
}

interface FailureWindow {
  endsAt: number;
  leadIds: string[];
  lastError: DeliveryError;
}

/**
 * When to tell the team chat, and what: a pure state machine, the clock injected. Each method
 * takes what was observed and returns the texts to post now (often none); `tick()` returns those
 * that fall due with time alone. It keeps no personal data: lead ids only.
 *
 * - A destination that gives up on a lead: one message at once; further failures there within
 *   the hour, one follow-up with their count when the hour ends.
 * - A `pending` lead older than `alertAfterMinutes`: one message, one reminder an hour while it
 *   lasts, one all-clear.
 * - A database unreachable for 5 minutes: one message, and one when it is back.
 * - Leads sent directly (kept nowhere): one message with their count at once, then at most one
 *   an hour with the count since.
 */
export function createAlertPolicy(options: {
  alertAfterMinutes: number;
  /** This server's name, for the database messages: each replica sends its own. */
  replica: string;
  now?: () => number;
}) {
  const { alertAfterMinutes, replica } = options;
  const now = options.now ?? Date.now;
  const windows = new Map<DestinationName, FailureWindow>();
  /** When the queue message (or its last reminder) went out; undefined: no lead is too old. */
  let queueToldAt: number | undefined;
  let databaseDownSince: number | undefined;
  let databaseTold = false;
  /** How many direct sends the last message counted up to, and when it went out. */
  let directTold = 0;
  let directToldAt: number | undefined;

  const closeWindows = (time: number): string[] =>
    [...windows].flatMap(([destination, window]) => {
      if (time < window.endsAt) return [];
      windows.delete(destination);
      return window.leadIds.length === 0
        ? []
        : [furtherFailuresMessage({ destination, leadIds: window.leadIds, lastError: window.lastError })];
    });

  const databaseDue = (time: number): string[] => {
    if (
      databaseDownSince === undefined ||
      databaseTold ||
      time - databaseDownSince < DATABASE_ALERT_AFTER_MS
    ) {
      return [];
    }
    databaseTold = true;
    return [databaseUnreachableMessage({ replica, downMs: time - databaseDownSince })];
  };

  return {
    /** A destination gave up on a lead for good. */
    gaveUp(failure: {
      leadId: string;
      destination: DestinationName;
      attempts: number;
      error: DeliveryError;
    }): string[] {
      const time = now();
      const due = closeWindows(time);
      const window = windows.get(failure.destination);
      if (window) {
        window.leadIds.push(failure.leadId);
        window.lastError = failure.error;
        return due;
      }
      windows.set(failure.destination, {
        endsAt: time + ALERT_HOUR_MS,
        leadIds: [],
        lastError: failure.error,
      });
      return [...due, gaveUpMessage(failure)];
    },

    /** The oldest `pending` lead now (null: none), observed as often as the caller looks. */
    queue(oldest: OldestPending | null): string[] {
      const time = now();
      const waitedMs = oldest ? time - oldest.since : 0;
      if (!oldest || waitedMs <= alertAfterMinutes * 60_000) {
        if (queueToldAt === undefined) return [];
        queueToldAt = undefined;
        return [queueClearMessage(alertAfterMinutes)];
      }
      if (queueToldAt !== undefined && time - queueToldAt < ALERT_HOUR_MS) return [];
      const reminder = queueToldAt !== undefined;
      queueToldAt = time;
      return [
        queueWaitingMessage({
          oldestId: oldest.id,
          waitedMs,
          waiting: oldest.waiting,
          afterMinutes: alertAfterMinutes,
          reminder,
        }),
      ];
    },

    /** Whether this server reaches the database now. */
    database(reachable: boolean): string[] {
      const time = now();
      if (!reachable) {
        databaseDownSince ??= time;
        return databaseDue(time);
      }
      const since = databaseDownSince;
      const told = databaseTold;
      databaseDownSince = undefined;
      databaseTold = false;
      return since !== undefined && told ? [databaseBackMessage({ replica, downMs: time - since })] : [];
    },

    /** How many leads this server has sent directly since it started, observed as often as the caller looks. */
    direct(total: number): string[] {
      const time = now();
      if (total <= directTold) return [];
      if (directToldAt !== undefined && time - directToldAt < ALERT_HOUR_MS) return [];
      const count = total - directTold;
      directTold = total;
      directToldAt = time;
      return [directSendsMessage({ replica, count })];
    },

    /** What falls due with time alone: follow-ups at the end of their hour, a database outage reaching 5 minutes. */
    tick(): string[] {
      const time = now();
      return [...closeWindows(time), ...databaseDue(time)];
    },
  };
}

export type AlertPolicy = ReturnType<typeof createAlertPolicy>;
