/**
 * What a destination is: the one shape every place a lead is delivered to (EmailJS, the lead
 * webhook) keeps, and the one result each attempt comes to. The destinations themselves are
 * listed in app/destinations/registry.server.ts.
 *
 * Why: docs/decisions/033-one-shape-for-every-destination.md.
 */
import type { Env } from "~/env.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import type { LeadSource } from "~/lead-parts/source";
import type { PrivacyNoticeRecord } from "~/privacy-notice/record";

/** Why an attempt failed, short enough for a log line, an alert or `npm run leads`. */
export interface DeliveryError {
  /** The HTTP status the receiver answered with; absent when it never answered. */
  status?: number;
  /**
   * One short line in the site's words (`HTTP 503`, `connection refused (ECONNREFUSED)`,
   * `EmailJS answered 412: the mail account must be reconnected in EmailJS`), never a
   * receiver's body nor EmailJS's text: alerts and `lead.failed` events carry it.
   */
  cause: string;
}

/**
 * One attempt's outcome, at every destination: its answer as judged by the destination's own
 * rules. `retry`: worth another try (the backoff decides when); `retryAfterMs`: the receiver
 * asked to wait that long first (`Retry-After`, already capped).
 */
export type DeliveryResult =
  | { ok: true }
  | { ok: false; retry: boolean; retryAfterMs?: number; error: DeliveryError };

/** What a destination is sent of a lead: what the store keeps of every one. */
export interface LeadToSend {
  id: string;
  /** ISO time the enquiry was stored. */
  receivedAt: string;
  enquiry: Enquiry;
  source?: LeadSource;
  privacyNotice?: PrivacyNoticeRecord;
}

/** A destination gave up on a lead (its record turned `failed`): what alerts and `lead.failed` carry. */
export interface GaveUp {
  leadId: string;
  destination: string;
  attempts: number;
  /** The last attempt's error: its HTTP status as data, and the lead's last error as its cause. */
  error: DeliveryError;
}

/**
 * How a destination hears that an operator erased a lead it may hold: told by `tellErased`
 * (`event` names what it is sent; `where` is where to erase it by hand when it could not be
 * told), or never, the operator erasing it `byHand`.
 */
export type ErasureWay = { told: true; event: string; where: string } | { told: false; byHand: string };

/** A destination as this process reaches it, connected from the environment. */
export interface DestinationLink {
  /** The receiver's host, all of its address a log line may name; none for a provider's API. */
  readonly host?: string;
  /**
   * One attempt to deliver `lead`; never throws (a failure is `{ ok: false }`). `direct`: sent
   * directly (kept nowhere, never tried again), which its own log line says.
   */
  send(lead: LeadToSend, how?: "queued" | "direct"): Promise<DeliveryResult>;
  /** One attempt to tell it lead `leadId` was erased: those whose erasure is `told`. */
  tellErased?(leadId: string, erasedAt: Date): Promise<DeliveryResult>;
  /** A destination (any) gave up on a lead: those that hear of it queue it and return at once. */
  heardGaveUp?(gaveUp: GaveUp): void;
  /** Starts nothing new; resolves once what is in flight ends. */
  stop?(): Promise<void>;
}

/**
 * One destination, declared once: everything the site does with leads (delivery, its lease,
 * direct sends, erasure, alerts, the CSV export, `npm run leads`) reads it from here.
 */
export interface Destination<Name extends string = string, Answer = never> {
  /** Its name in a lead's record, the CSV's column, `npm run leads` and `--to`. */
  readonly name: Name;
  /** How alerts name it: `EmailJS`, `the lead webhook`. */
  readonly title: string;
  /** The longest one attempt may take: the delivery lease outlasts it. */
  readonly timeoutMs: number;
  /**
   * The environment variables it reads, checked by the compiler against app/env.server.ts and
   * by `npm run check` against `.env.example` and docs/configuration.md.
   */
  readonly settings: readonly (keyof Env & string)[];
  /** What an operator checks when it fails, as an alert says it. */
  readonly check: string;
  /** Whether it takes a lead sent directly, when neither the store nor its spool can keep it. */
  readonly directSend: boolean;
  readonly erasure: ErasureWay;
  /** Its rules: what one answer of its receiver means (delivered, final, worth another try, after when). */
  judge(answer: Answer, now: number): DeliveryResult;
  /**
   * Connects it from the environment: a link; `held` while it is partly configured (its leads
   * wait); null when it is not configured at all (no lead goes there).
   */
  connect(env: Env, log: (line: string) => void): DestinationLink | "held" | null;
}

/** `EMAILJS_*`: the prefix a destination's settings share, for alerts' advice. */
export function settingsPattern(destination: Pick<Destination, "settings">): string {
  const [first = "", ...rest] = destination.settings;
  let prefix = first;
  for (const name of rest) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const cut = prefix.lastIndexOf("_");
  return cut > 0 ? `${prefix.slice(0, cut + 1)}*` : destination.settings.join(", ");
}
