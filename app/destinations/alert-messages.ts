/**
 * The texts posted to the team chat. Each says what happened and what to run or check; a lead
 * appears by its id and reference (`NRM-7KQ2-M9XD`, which its sender may quote), never by anything
 * its sender wrote.
 */
import { type DeliveryError, settingsPattern } from "~/destinations/destination";
import { type DestinationName, destinationNamed, destinations } from "~/destinations/lookup.server";
import { leadReference } from "~/lead-parts/reference";

/** How an alert names a destination (`EmailJS`), and what it tells the operator to check. */
const titleOf = (name: DestinationName) => destinationNamed(name).title;
const checkOf = (name: DestinationName) => destinationNamed(name).check;

/** `A`, `A and B`, `A, B and C`. */
function listed(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** The most lead ids a follow-up lists; the rest are counted. */
const MAX_IDS_LISTED = 10;

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
/** `<id> (NRM-7KQ2-M9XD)`. */
const named = (leadId: string) => `${leadId} (${leadReference(leadId)})`;

function describeError(error: DeliveryError): string {
  const cause = error.cause.slice(0, 200);
  // `EmailJS answered 412: …` and `HTTP 503` name their status already.
  return error.status === undefined || new RegExp(`\\b${error.status}\\b`).test(cause)
    ? cause
    : `HTTP ${error.status}: ${cause}`;
}

/** A destination gave up on a lead: sent at once. */
export function gaveUpMessage(failure: {
  leadId: string;
  destination: DestinationName;
  attempts: number;
  error: DeliveryError;
}): string {
  const { leadId, destination, attempts, error } = failure;
  return `Lead ${named(leadId)} was not delivered to ${titleOf(destination)}: it gave up after ${plural(attempts, "attempt", "attempts")} (${describeError(error)}). To fix it, ${checkOf(destination)}, then run \`npm run leads -- retry ${leadId}\`.`;
}

/** The failures at one destination in the hour after its first alert, counted in one message. */
export function furtherFailuresMessage(failures: {
  destination: DestinationName;
  leadIds: readonly string[];
  lastError: DeliveryError;
}): string {
  const { destination, leadIds, lastError } = failures;
  const listed = leadIds.slice(0, MAX_IDS_LISTED).map(named).join(", ");
  const rest = leadIds.length > MAX_IDS_LISTED ? ` and ${leadIds.length - MAX_IDS_LISTED} more` : "";
  return `${plural(leadIds.length, "more lead was", "more leads were")} not delivered to ${titleOf(destination)} in the hour after the last alert (last: ${describeError(lastError)}): ${listed}${rest}. To fix it, ${checkOf(destination)}, then run \`npm run leads -- retry --failed\`.`;
}

/** A `pending` lead has waited longer than ALERT_AFTER_MINUTES (`reminder`: the hourly repeat). */
export function queueWaitingMessage(queue: {
  oldestId: string;
  waitedMs: number;
  waiting: number;
  afterMinutes: number;
  reminder: boolean;
}): string {
  const { oldestId, waitedMs, waiting, afterMinutes, reminder } = queue;
  const count = `${plural(waiting, "lead is", "leads are")} waiting to be delivered`;
  return `${reminder ? "Still: " : ""}${count}, the oldest (${named(oldestId)}) for ${plural(minutes(waitedMs), "minute", "minutes")}, longer than ALERT_AFTER_MINUTES (${afterMinutes}). Run \`npm run leads\` to see each one's last error, and check the server log and the ${listed(destinations().map(settingsPattern))} variables.`;
}

/** No `pending` lead is older than ALERT_AFTER_MINUTES any more. */
export function queueClearMessage(afterMinutes: number): string {
  return `All clear: no lead has waited longer than ${plural(afterMinutes, "minute", "minutes")} any more; delivery is moving again.`;
}

/** This server has not reached the database for a while (every replica says so for itself). */
export function databaseUnreachableMessage(outage: { replica: string; downMs: number }): string {
  return `Server ${outage.replica} has not reached the database for ${plural(minutes(outage.downMs), "minute", "minutes")}: new enquiries wait in its spool (ENQUIRY_STORE_DIR/spool) and stored leads wait. Check the database and DATABASE_URL; the server log names the cause.`;
}

/** The database answers this server again. */
export function databaseBackMessage(outage: { replica: string; downMs: number }): string {
  return `Server ${outage.replica} reaches the database again, after ${plural(minutes(outage.downMs), "minute", "minutes")} without it.`;
}

/**
 * Leads this server sent directly, kept nowhere, because neither the store nor its spool could
 * keep them: `count` since the last such message (the first at once, then at most one an hour).
 */
export function directSendsMessage(sends: { replica: string; count: number }): string {
  const { replica, count } = sends;
  const them = count === 1 ? "it" : "them";
  const direct = destinations()
    .filter((destination) => destination.directSend)
    .map((destination) => destination.title);
  return `Server ${replica} sent ${plural(count, "lead", "leads")} directly to ${listed(direct)}, as configured: neither the lead store nor its spool in ENQUIRY_STORE_DIR could keep ${them}, so ${count === 1 ? "it is" : "they are"} not in \`npm run leads\`, and a destination that did not take ${them} then will never get ${them}. Check the database (DATABASE_URL) and the data folder's free space and permissions; the server log names each lead's id and where it went.`;
}

/**
 * A lead its sender withdrew on the site (/privacy/withdraw), which a destination that cannot be
 * told may hold (EmailJS's mail): what the team must erase by hand, once per lead.
 */
export function withdrawnMessage(withdrawn: { leadId: string; holding: readonly DestinationName[] }): string {
  const { leadId, holding } = withdrawn;
  const byHand = holding.flatMap((name) => {
    const { erasure } = destinationNamed(name);
    return erasure.told ? [] : [erasure.byHand];
  });
  return `Lead ${named(leadId)} withdrawn: ${listed(byHand)}, then run \`npm run leads -- withdrawn-done ${leadId}\`.`;
}

/** A destination that hears of erasures gave up on hearing of a withdrawn lead: erase it there by hand. */
export function withdrawalNotTakenMessage(failure: {
  leadId: string;
  destination: DestinationName;
  attempts: number;
  cause: string;
}): string {
  const { leadId, destination, attempts, cause } = failure;
  const { erasure, title } = destinationNamed(destination);
  const where = erasure.told ? erasure.where : title;
  const event = erasure.told ? erasure.event : "the erasure";
  return `Lead ${named(leadId)} withdrawn: ${title} did not take ${event} after ${plural(attempts, "attempt", "attempts")} (${cause.slice(0, 200)}); erase it at ${where} by hand, then run \`npm run leads -- withdrawn-done ${leadId}\`.`;
}
