// `npm run leads`: the operator's view of the lead store, safe while the server runs.
//   npm run leads [-- --state STATE]   newest first: time, state, name, e-mail, source, each destination's state
//   npm run leads -- --json            one JSON object per lead per line, each destination's record in `destinations`
//   npm run leads -- --sources [--days N]   leads per source, medium and campaign over the last N days (30)
//   npm run leads -- --spam [--json]   the quarantine: what the honeypot, block list and headless rule caught
//   npm run -s leads -- --csv [--since DATE] [--state STATE] [--spam] > leads.csv   a spreadsheet of the leads
//   npm run leads -- retry ID [--to DESTINATION]        puts what failed of a lead (or an inbox lead) back in the queue
//   npm run leads -- retry --failed [--to DESTINATION]  puts every failed delivery back in the queue
//   npm run leads -- release ID        moves a quarantined lead into the delivery queue
//   npm run leads -- find REFERENCE|EMAIL|PHONE [--json]   the lead of an enquiry's reference, or every lead of one person, in any state
//   npm run leads -- erase ID|EMAIL|PHONE        deletes the lead, or them all, for good, and names and tells where they may be held
//   npm run leads -- --health          the store as it shows itself, without the server
// Its forms are listed in scripts/lib/command-forms.ts. It reads the store the server uses: the
// database when DATABASE_URL is set, otherwise ENQUIRY_STORE_DIR (default ./data), with the
// store's own rules (app/leads/). What it queues, the running server routes: to each destination
// it has configured (EmailJS, the webhook), otherwise to its inbox. `npm run build` bundles it
// into build/leads.js (scripts/build-commands.js), so the production image has it too.
import { openCommandDatabase } from "~/db/command-database.server";
import type { Database } from "~/db/database.server";
import type { DestinationName } from "~/destinations/destination";
import { createWebhookSender, type WebhookSender } from "~/destinations/webhook.server";
import { env } from "~/env.server";
import { isPerson, parsePersonQuery } from "~/lead-parts/person";
import { leadReference, leadsWithReference, parseReference } from "~/lead-parts/reference";
import { channelOf, describeSource } from "~/lead-parts/source";
import { type LeadStore, MAX_LEADS } from "~/leads/contract.server";
import { delivererLockPath, readFolderLockHolder } from "~/leads/folder/lock.server";
import { createFolderLeadStore, leadsFolder } from "~/leads/folder/store.server";
import { describeLeads } from "~/leads/health-report";
import {
  type DeliveryRecord,
  destinationsOf,
  LEAD_ID,
  type Lead,
  type LeadState,
  UNDELIVERED_STATES,
} from "~/leads/lead";
import { readPostgresLockHolder } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { release, requeue, retried as retriedDelivery } from "~/leads/retry-policy";
import { createLeadSpool, spoolFolder } from "~/leads/spool.server";
import { showInvisible } from "~/text/invisible-characters";
import { type FormName, optionProblem, readArguments, usageLine } from "./lib/command-forms";
import { postLeadErased } from "./lib/erased-event";
import { describeDeliveries, leadJson } from "./lib/lead-view";
import { writeLeadsCsv } from "./lib/leads-csv";
import { printTable } from "./lib/table.js";

// The arguments are read before the store is opened: a mistyped command is told its usage
// whether or not the database answers.
const args = readArguments("leads", process.argv.slice(2));
if (!args) {
  const problem = optionProblem("leads", process.argv.slice(2));
  console.error(problem ? `leads: ${problem}; ${usageLine("leads")}` : usageLine("leads"));
  process.exit(2);
}
const csvFilter = {
  state: args.options.get("--state") ?? (args.switches.has("--spam") ? "spam" : undefined),
  since: args.options.get("--since"),
};
if (args.form === "csv") checkCsvArguments(args.switches.has("--spam"), args.options.get("--state"));
const json = args.switches.has("--json");
const [value = ""] = args.values;
const to = args.options.get("--to") as DestinationName | undefined;
const listState = args.options.get("--state") as LeadState | undefined;
const database = env.DATABASE_URL ? await openCommandDatabase("leads", env.DATABASE_URL) : null;
const store: LeadStore = database
  ? createPostgresLeadStore({ database, log: (line) => console.error(line) })
  : createFolderLeadStore({ folder: leadsFolder(env.ENQUIRY_STORE_DIR), create: false });

/** What each form of the command does (scripts/lib/command-forms.ts lists the forms). */
const run: Record<FormName<"leads">, () => Promise<void>> = {
  list: () => (listState === undefined ? list(false) : list(listState === "spam", listState)),
  spam: () => list(true),
  csv: () => csv(csvFilter),
  sources: () => sources(30),
  sourcesOver: () => sources(Number(value)),
  health,
  retryFailed: () => retry("--failed", to),
  retry: () => retry(value, to),
  release: () => releaseLead(value),
  find: () => find(value),
  erase: () => erase(value),
};

try {
  await run[args.form]();
} catch (error) {
  const changes = ["retry", "retryFailed", "release", "erase"].includes(args.form);
  console.error(
    `leads: cannot ${changes ? "change" : "read"} ${store.folder}${database ? " (DATABASE_URL)" : ""}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await database?.stop();
}

/**
 * The inbox view (every lead not quarantined), or with `spam` the quarantine, newest first; with
 * `state`, only the leads in that state.
 */
async function list(spam: boolean, state?: LeadState) {
  const all = (await store.list()).reverse();
  const leads = all.filter((lead) =>
    state === undefined ? (lead.state === "spam") === spam : lead.state === state,
  );
  if (json) return printJson(leads);
  if (leads.length === 0) {
    console.log(
      state !== undefined
        ? `No ${state} leads in ${store.folder}.`
        : spam
          ? "The quarantine is empty."
          : `No leads in ${store.folder}.`,
    );
  } else if (spam) {
    printTable(
      leads.map((lead) => ({
        time: time(lead),
        reason: lead.reason ?? "",
        id: lead.id,
        reference: leadReference(lead.id),
        name: showInvisible(lead.enquiry.name),
        "e-mail": showInvisible(lead.enquiry.email),
        source: sourceOf(lead),
      })),
    );
    console.log("Release one into the delivery queue with: npm run leads -- release ID");
  } else {
    printTable(
      leads.map((lead) => ({
        time: time(lead),
        state: lead.state,
        reference: leadReference(lead.id),
        name: showInvisible(lead.enquiry.name),
        "e-mail": showInvisible(lead.enquiry.email),
        source: sourceOf(lead),
        destinations: showInvisible(describeDeliveries(lead)),
      })),
    );
  }
  const quarantined = all.filter((lead) => lead.state === "spam").length;
  if (!spam && state === undefined && quarantined > 0) {
    console.log(`${plural(quarantined, "lead")} in the quarantine: npm run leads -- --spam`);
  }
}

/** Stops before the store is opened when `--csv` is told two things at once or would write to a terminal. */
function checkCsvArguments(spam: boolean, state: string | undefined) {
  if (spam && state !== undefined && state !== "spam") {
    console.error(
      `leads: --spam exports the quarantine, whose leads are spam, not ${state}: give one of the two`,
    );
    process.exit(2);
  }
  // A terminal would run the escape sequences a visitor can put in a field, and rewrite the line ends.
  if (process.stdout.isTTY) {
    console.error(
      "leads: --csv writes a spreadsheet, not to a terminal: send it to a file, npm run -s leads -- --csv > leads.csv (with docker compose exec -T, docker exec without -t)",
    );
    process.exit(2);
  }
}

/**
 * The spreadsheet export, oldest first: the leads not quarantined, or the quarantine
 * (`--spam`), or one state (`--state`), received on or after the start of `--since` (UTC).
 */
async function csv({ state, since }: { state?: string; since?: string }) {
  const start = since === undefined ? undefined : new Date(`${since}T00:00:00Z`);
  // Read as the rows are written, a page (a file) at a time: memory stays flat however many leads.
  const leads = async function* () {
    for await (const lead of store.each(start)) {
      if (state === undefined ? lead.state !== "spam" : lead.state === state) yield lead;
    }
  };
  try {
    await writeLeadsCsv(leads(), process.stdout);
  } catch (error) {
    // The reader stopped early (`| head`): what it read is what it asked for.
    if ((error as NodeJS.ErrnoException).code === "EPIPE") return;
    fail(`leads: cannot write the export: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `google / cpc / spring-launch`, `linkedin.com (referral)`, `direct`; `unknown` for a lead from before sources were kept. */
function sourceOf(lead: Lead) {
  return showInvisible(describeSource(lead.source));
}

function time(lead: Lead) {
  return lead.receivedAt.replace("T", " ").slice(0, 19);
}

function plural(count: number, noun: string) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function printJson(leads: Lead[]) {
  for (const lead of leads) {
    // JSON.stringify leaves bidi and other invisible characters raw: escaped, they still parse the same.
    console.log(showInvisible(JSON.stringify(leadJson(lead)), "json"));
  }
}

/** One JSON line for the operator's log: ids and counts, never the person's data. */
function logLine(fields: Record<string, unknown>) {
  console.error(JSON.stringify(fields));
}

/**
 * Puts back in the queue what failed: of one lead (`ID`) or of every lead (`--failed`), each failed
 * destination, or only `to`; each with a fresh 72 h of retries. An `inbox` lead named by its id
 * goes to every destination the running server has. Only the retried destination's record is
 * written, so a delivery the server is making meanwhile at another is never undone.
 */
async function retry(which: string, to: DestinationName | undefined) {
  const leads = await store.list();
  const now = new Date();
  const failedOf = (lead: Lead) =>
    destinationsOf(lead).filter(
      (name) => lead.destinations[name]?.state === "failed" && (to === undefined || name === to),
    );
  if (which !== "--failed") {
    const lead = leads.find((candidate) => candidate.id === which);
    if (!lead) fail(`leads: no lead ${showInvisible(which)}`);
    if (lead.state === "inbox") {
      if (to !== undefined) {
        fail(
          `leads: ${which} is an inbox lead, with no destination: retry it without --to, and the running server sends it to each destination it has`,
        );
      }
      // No deliverer writes an inbox lead: it is the operator's alone.
      if (!(await store.save(requeue(lead, now))))
        fail(`leads: ${which} was erased meanwhile: nothing to retry`);
      return sayRequeued(1, "");
    }
    if (to !== undefined && !lead.destinations[to]) {
      const its = destinationsOf(lead);
      fail(
        `leads: ${which} does not go to ${to} (${its.length > 0 ? `it goes to ${its.join(", ")}` : `it is ${lead.state}`}): nothing to retry`,
      );
    }
    if (failedOf(lead).length === 0) {
      fail(
        to === undefined
          ? `leads: ${which} is ${lead.state}, not failed: nothing to retry`
          : `leads: ${which} is ${lead.destinations[to]?.state} at ${to}, not failed: nothing to retry`,
      );
    }
  }
  const chosen = which === "--failed" ? leads : leads.filter((lead) => lead.id === which);
  let count = 0;
  const names = new Set<DestinationName>();
  for (const lead of chosen) {
    let written = false;
    for (const name of failedOf(lead)) {
      const record = lead.destinations[name] as DeliveryRecord;
      if (await store.saveDelivery(lead, name, retriedDelivery(record, now))) {
        written = true;
        names.add(name);
      }
    }
    if (written) count += 1;
    else if (which !== "--failed") fail(`leads: ${which} was erased meanwhile: nothing to retry`);
  }
  sayRequeued(count, [...names].join(", "));
}

/** `1 lead back in the queue (webhook): …`. */
function sayRequeued(count: number, destinations: string) {
  console.log(
    `${plural(count, "lead")} back in the queue${destinations ? ` (${destinations})` : ""}: the running server delivers ${count === 1 ? "it" : "them"} within a few seconds (one without any destination files ${count === 1 ? "it" : "them"} in its inbox).`,
  );
}

async function releaseLead(id: string) {
  const lead = (await store.list()).find((candidate) => candidate.id === id);
  if (!lead) fail(`leads: no lead ${showInvisible(id)}`);
  if (lead.state !== "spam") fail(`leads: ${id} is ${lead.state}, not in the quarantine: nothing to release`);
  // Queued for every destination whatever this shell's variables say: the running server drops
  // those it has not configured, so the lead goes to the destinations configured at its release
  // (a server with none files it in its inbox).
  const released = release(lead, new Date());
  if (!(await store.save(released))) fail(`leads: ${id} was erased meanwhile: nothing to release`);
  logLine({
    event: "lead",
    id,
    state: released.state,
    attempts: 0,
    released: released.releasedAt,
    reason: lead.reason,
  });
  console.log(
    `Released ${id} (${lead.reason}) into the delivery queue: the running server sends it within a few seconds to each destination it has (one without any files it in its inbox).`,
  );
}

async function personLeads(who: string): Promise<Lead[]> {
  const query = parsePersonQuery(who);
  if (!query) {
    fail(
      "leads: name the person by e-mail address (asha@example.in) or phone number with country code (919876543210)",
    );
  }
  return (await store.list()).filter((lead) => isPerson(lead.enquiry, query));
}

/**
 * The lead of an enquiry's reference (`NRM-7KQ2-M9XD`, any case, dashes or none), or every lead
 * of one person (by e-mail address or phone number); a reference two leads share is said to be
 * ambiguous, and both are listed.
 */
async function find(what: string) {
  const reference = parsePersonQuery(what) === null ? parseReference(what) : null;
  if (reference !== null) return findReference(reference);
  const leads = (await personLeads(what)).reverse();
  if (json) return printJson(leads);
  if (leads.length === 0) return console.log("No lead of that person.");
  printFound(leads);
  console.log(
    `${plural(leads.length, "lead")}. Delete them all with: npm run leads -- erase ${showInvisible(what)}`,
  );
}

async function findReference(reference: string) {
  const leads = leadsWithReference(await store.list(), reference).reverse();
  if (json) return printJson(leads);
  if (leads.length === 0) return console.log(`No lead has the reference ${reference}.`);
  printFound(leads);
  if (leads.length === 1) {
    console.log(`Delete it with: npm run leads -- erase ${leads[0]?.id}`);
  } else {
    console.log(
      `${reference} is ambiguous: ${leads.length} leads have it. Ask the sender for their e-mail address or phone number, and find them by it.`,
    );
  }
}

function printFound(leads: Lead[]) {
  printTable(
    leads.map((lead) => ({
      time: time(lead),
      state: lead.state,
      reason: lead.reason ?? "",
      id: lead.id,
      reference: leadReference(lead.id),
      name: showInvisible(lead.enquiry.name),
      "e-mail": showInvisible(lead.enquiry.email),
      phone: `+${lead.enquiry.countryCode} ${lead.enquiry.phoneNumber}`,
    })),
  );
}

/**
 * Erases one lead (by its id) or every lead of one person, then names each destination that may
 * hold it (its delivery there began: in flight, timed out, failed or delivered), telling those
 * that can hear of an erasure (the webhook: `lead.erased`, when this shell has it) and saying how
 * to erase it at the others. Exits 1 when one that can be told was not.
 */
async function erase(who: string) {
  const byId = LEAD_ID.test(who.trim().toLowerCase());
  const leads = byId
    ? (await store.list()).filter((lead) => lead.id === who.trim().toLowerCase())
    : await personLeads(who);
  if (byId && leads.length === 0) fail(`leads: no lead ${showInvisible(who)}`);
  const now = new Date();
  // What each destination may hold is read by the erasure itself, after it is recorded: a send
  // that began before is named, one that would begin after never goes out.
  const holding: [string, DestinationName[]][] = [];
  for (const lead of leads) holding.push([lead.id, await store.erase(lead)]);
  logLine({ event: "erase", leads: leads.length });
  console.log(
    byId ? `Erased lead ${leads[0]?.id}.` : `Erased ${plural(leads.length, "lead")} of that person.`,
  );
  const webhook =
    env.LEAD_WEBHOOK_URL && env.LEAD_WEBHOOK_SECRET
      ? createWebhookSender({ url: env.LEAD_WEBHOOK_URL, secret: env.LEAD_WEBHOOK_SECRET })
      : null;
  // What the operator does where a destination cannot hear of an erasure.
  const byHand: Record<Exclude<DestinationName, "webhook">, string> = {
    emailjs: "delete its mail from the agency's mailbox",
  };
  for (const [id, destinations] of holding) {
    for (const destination of destinations) {
      if (destination === "webhook") await tellWebhook(webhook, id, now);
      else console.log(`${id}: may hold it, cannot be told: ${destination} — ${byHand[destination]}.`);
    }
  }
}

/** Posts `lead.erased` for one lead and says whether the webhook took it (its host only, never the URL). */
async function tellWebhook(webhook: WebhookSender | null, id: string, erasedAt: Date) {
  if (!webhook) {
    console.log(
      `${id}: may hold it, not told: webhook (LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET are not set in this shell) — erase it at the webhook's receiver by hand.`,
    );
    process.exitCode = 1;
    return;
  }
  const outcome = await postLeadErased(webhook, id, erasedAt);
  const tries = plural(outcome.attempts, "attempt");
  logLine({ event: "lead.erased", id, host: webhook.host, took: outcome.took, attempts: outcome.attempts });
  if (outcome.took) {
    console.log(`${id}: may hold it, told: webhook (${webhook.host} took lead.erased, ${tries}).`);
    return;
  }
  console.log(
    `${id}: may hold it, not told: webhook (${webhook.host} did not take lead.erased: ${outcome.error.cause}, ${tries}) — erase it there by hand.`,
  );
  process.exitCode = 1;
}

/** What the store itself tells, without the server: a write probe, the counts, the deliverer. */
async function health() {
  const written = await store.probe();
  const counts = await store.counts();
  const spool = createLeadSpool({ folder: spoolFolder(env.ENQUIRY_STORE_DIR) });
  const spooled = await spool.count();
  const { store: state, leads } = describeLeads({ counts, lastWrite: written, maxLeads: MAX_LEADS, spooled });
  console.log(
    `store: ${state}${written.ok ? "" : ` (a test write failed: ${written.error})`} in ${store.folder}`,
  );
  console.log(
    `leads: ${leads.pending} pending${leads.pending > 0 ? ` (oldest ${leads.oldestPendingSeconds} s)` : ""}, ${leads.failed} failed, ${counts.inbox} inbox, ${counts.sent} sent, ${leads.spam} in the quarantine`,
  );
  // The spool of this data folder only: each replica has its own (its /healthz counts it).
  if (database || spooled > 0) {
    console.log(
      `spool: ${plural(spooled, "lead")} in ${spool.folder} waiting for the database${spooled > 0 ? (database ? " (a server running on this data folder moves them in)" : ": set DATABASE_URL and start the server to move them in") : ""}`,
    );
  }
  console.log(database ? await databaseDeliverer(database) : await folderDeliverer(store.folder));
  if (state === "unusable") process.exitCode = 1;
}

async function folderDeliverer(folder: string) {
  const holder = await readFolderLockHolder(delivererLockPath(folder));
  return holder
    ? `delivery: held by process ${showInvisible(holder.token) || "(unnamed)"}${holder.since ? ` since ${showInvisible(holder.since)}` : ""}, heartbeat ${(holder.heartbeatAgeMs / 1000).toFixed(1)} s ago${holder.stale ? " (stale: the next server to look takes over)" : ""}`
    : "delivery: no process holds the lock (no server running on this folder)";
}

async function databaseDeliverer(connected: Database) {
  const holder = await readPostgresLockHolder(connected);
  return holder
    ? `delivery: held by database connection ${holder.pid} from ${holder.client}, connected since ${holder.since}`
    : "delivery: no replica holds the deliverer lock (no server running on this database)";
}

/** Leads per source, medium and campaign received in the last `days` days, by what became of them. */
async function sources(days: number) {
  const since = Date.now() - days * 24 * 60 * 60 * 1000;
  const recent = (await store.list()).filter((lead) => Date.parse(lead.receivedAt) >= since);
  const rows = new Map<string, { source: string; medium: string; campaign: string; counts: number[] }>();
  for (const lead of recent) {
    const channel = channelOf(lead.source);
    const key = JSON.stringify([channel.source, channel.medium, channel.campaign]);
    const row = rows.get(key) ?? { ...channel, counts: [0, 0, 0] };
    const column = lead.state === "sent" ? 0 : UNDELIVERED_STATES.includes(lead.state) ? 1 : 2;
    row.counts[column] = (row.counts[column] ?? 0) + 1;
    rows.set(key, row);
  }
  const total = (row: { counts: number[] }) => row.counts.reduce((sum, count) => sum + count, 0);
  const sorted = [...rows.values()].sort(
    (a, b) =>
      total(b) - total(a) ||
      `${a.source}/${a.medium}/${a.campaign}`.localeCompare(`${b.source}/${b.medium}/${b.campaign}`),
  );
  const period = `the last ${plural(days, "day")} (since ${new Date(since).toISOString().replace("T", " ").slice(0, 16)} UTC)`;
  if (sorted.length === 0) return console.log(`No leads in ${period}.`);
  console.log(
    `Leads per source over ${period}: delivered (sent), waiting (pending, inbox, failed), quarantined (spam).`,
  );
  printTable(
    sorted.map((row) => ({
      source: showInvisible(row.source),
      medium: showInvisible(row.medium),
      campaign: showInvisible(row.campaign),
      delivered: row.counts[0],
      waiting: row.counts[1],
      quarantined: row.counts[2],
    })),
  );
}

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}
