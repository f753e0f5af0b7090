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
// A command line over app/leads/operations/, which does the work on the store's contract, a page
// of leads at a time; its forms are listed in app/leads/operations/command-forms.ts. It reads the
// store the server uses: the database when DATABASE_URL is set, otherwise ENQUIRY_STORE_DIR
// (default ./data), with the store's own rules (app/leads/). What it queues, the running server routes: to each destination
// it has configured (app/destinations/registry.server.ts), otherwise to its inbox. `npm run build` bundles it
// into build/leads.js (scripts/build-commands.js), so the production image has it too.
import { openCommandDatabase } from "~/db/command-database.server";
import type { Database } from "~/db/database.server";
import type { Destination, DestinationLink, ErasureWay } from "~/destinations/destination";
import { type DestinationName, destinationNamed } from "~/destinations/lookup.server";
import { env } from "~/env.server";
import { parsePersonQuery } from "~/lead-parts/person";
import { leadReference, parseReference } from "~/lead-parts/reference";
import { describeSource } from "~/lead-parts/source";
import { type LeadStore, MAX_LEADS } from "~/leads/contract.server";
import { delivererLockPath, readFolderLockHolder } from "~/leads/folder/lock.server";
import { createFolderLeadStore, leadsFolder } from "~/leads/folder/store.server";
import { describeLeads } from "~/leads/health-report";
import type { Lead, LeadState } from "~/leads/lead";
import { releaseLead, retryFailed, retryLead } from "~/leads/operations/changes.server";
import { type FormName, optionProblem, readArguments, usageLine } from "~/leads/operations/command-forms";
import { tellErased } from "~/leads/operations/erased-event";
import { eraseLeads } from "~/leads/operations/erasure.server";
import { type ExportFilter, exportLeads } from "~/leads/operations/export.server";
import { describeDeliveries, leadJson } from "~/leads/operations/lead-view";
import {
  leadsPerSource,
  leadsWithReferenceIn,
  personLeads,
  personQueryOf,
  selectedLeads,
} from "~/leads/operations/listing.server";
import { OperationRefused } from "~/leads/operations/refused";
import { readPostgresLockHolder } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { createLeadSpool, spoolFolder } from "~/leads/spool.server";
import { showInvisible } from "~/text/invisible-characters";
import { printStreamedTable, printTable } from "./lib/table.js";

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

/** What each form of the command does (app/leads/operations/command-forms.ts lists the forms). */
const run: Record<FormName<"leads">, () => Promise<void>> = {
  list: () => (listState === undefined ? list(false) : list(listState === "spam", listState)),
  spam: () => list(true),
  csv: () => csv(csvFilter),
  sources: () => sources(30),
  sourcesOver: () => sources(Number(value)),
  health,
  retryFailed: () => retry("--failed", to),
  retry: () => retry(value, to),
  release: () => release(value),
  find: () => find(value),
  erase: () => erase(value),
};

try {
  await run[args.form]();
} catch (error) {
  const changes = ["retry", "retryFailed", "release", "erase"].includes(args.form);
  console.error(
    error instanceof OperationRefused
      ? `leads: ${error.message}`
      : `leads: cannot ${changes ? "change" : "read"} ${store.folder}${database ? " (DATABASE_URL)" : ""}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await database?.stop();
}

/**
 * The inbox view (every lead not quarantined), or with `spam` the quarantine, newest first; with
 * `state`, only the leads in that state. Streamed: a table reads the store twice (its widths,
 * then its lines), JSON once.
 */
async function list(spam: boolean, state?: LeadState) {
  const selection = { spam, state };
  if (json) return printJson(selectedLeads(store, selection));
  let quarantined = 0;
  let reads = 0;
  const countQuarantined = (lead: Lead) => {
    if (lead.state === "spam") quarantined += 1;
  };
  const shown = await printStreamedTable(async function* () {
    // Counted on the first read only, the one that measures.
    reads += 1;
    for await (const lead of selectedLeads(store, selection, reads === 1 ? countQuarantined : undefined)) {
      yield spam
        ? {
            time: time(lead),
            reason: lead.reason ?? "",
            id: lead.id,
            reference: leadReference(lead.id),
            name: showInvisible(lead.enquiry.name),
            "e-mail": showInvisible(lead.enquiry.email),
            source: sourceOf(lead),
          }
        : {
            time: time(lead),
            state: lead.state,
            reference: leadReference(lead.id),
            name: showInvisible(lead.enquiry.name),
            "e-mail": showInvisible(lead.enquiry.email),
            source: sourceOf(lead),
            destinations: showInvisible(describeDeliveries(lead)),
          };
    }
  });
  if (shown === 0) {
    console.log(
      state !== undefined
        ? `No ${state} leads in ${store.folder}.`
        : spam
          ? "The quarantine is empty."
          : `No leads in ${store.folder}.`,
    );
  } else if (spam) {
    console.log("Release one into the delivery queue with: npm run leads -- release ID");
  }
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
async function csv(filter: ExportFilter) {
  try {
    await exportLeads(store, filter, process.stdout);
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

async function printJson(leads: AsyncIterable<Lead> | Iterable<Lead>) {
  for await (const lead of leads) {
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
 * destination, or only `to`; each with a fresh 72 h of retries (app/leads/operations/changes.server.ts).
 */
async function retry(which: string, to: DestinationName | undefined) {
  const now = new Date();
  const { count, destinations } =
    which === "--failed" ? await retryFailed(store, to, now) : await retryLead(store, which, to, now);
  const them = count === 1 ? "it" : "them";
  console.log(
    `${plural(count, "lead")} back in the queue${destinations.length > 0 ? ` (${destinations.join(", ")})` : ""}: the running server delivers ${them} within a few seconds (one without any destination files ${them} in its inbox).`,
  );
}

async function release(id: string) {
  const { lead, released } = await releaseLead(store, id, new Date());
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

/**
 * The lead of an enquiry's reference (`NRM-7KQ2-M9XD`, any case, dashes or none), or every lead
 * of one person (by e-mail address or phone number), newest first: a table read twice (its
 * widths, then its lines), or JSON. A reference two leads share is said to be ambiguous, and both
 * are listed.
 */
async function find(what: string) {
  const reference = parsePersonQuery(what) === null ? parseReference(what) : null;
  if (reference !== null) return findReference(reference);
  const query = personQueryOf(what);
  const leads = () => personLeads(store, query, "newest first");
  if (json) return printJson(leads());
  const count = await printStreamedTable(async function* () {
    for await (const lead of leads()) yield foundRow(lead);
  });
  if (count === 0) return console.log("No lead of that person.");
  console.log(
    `${plural(count, "lead")}. Delete them all with: npm run leads -- erase ${showInvisible(what)}`,
  );
}

async function findReference(reference: string) {
  // One lead, or the few an ambiguous reference names: kept to be counted before they are shown.
  const leads: Lead[] = [];
  for await (const lead of leadsWithReferenceIn(store, reference, "newest first")) leads.push(lead);
  if (json) return printJson(leads);
  if (leads.length === 0) return console.log(`No lead has the reference ${reference}.`);
  printTable(leads.map(foundRow));
  if (leads.length === 1) {
    console.log(`Delete it with: npm run leads -- erase ${leads[0]?.id}`);
  } else {
    console.log(
      `${reference} is ambiguous: ${leads.length} leads have it. Ask the sender for their e-mail address or phone number, and find them by it.`,
    );
  }
}

/** A found lead's line: enough to tell it from another and to erase it. */
function foundRow(lead: Lead) {
  return {
    time: time(lead),
    state: lead.state,
    reason: lead.reason ?? "",
    id: lead.id,
    reference: leadReference(lead.id),
    name: showInvisible(lead.enquiry.name),
    "e-mail": showInvisible(lead.enquiry.email),
    phone: `+${lead.enquiry.countryCode} ${lead.enquiry.phoneNumber}`,
  };
}

/**
 * Erases one lead (by its id) or every lead of one person, then names each destination that may
 * hold it (its delivery there began: in flight, timed out, failed or delivered), telling those
 * that can hear of an erasure (each as its declaration says: the webhook by `lead.erased`, when
 * this shell has its settings) and saying how to erase it at the others. Exits 1 when one that
 * can be told was not.
 */
async function erase(who: string) {
  const now = new Date();
  const { byId, erased } = await eraseLeads(store, who);
  logLine({ event: "erase", leads: erased.length });
  console.log(
    byId ? `Erased lead ${erased[0]?.id}.` : `Erased ${plural(erased.length, "lead")} of that person.`,
  );
  // Those that hear of an erasure, connected from this shell's settings once (null: not set here).
  const links = new Map<DestinationName, DestinationLink | null>();
  const linkOf = (destination: Destination<DestinationName, unknown>) => {
    if (!links.has(destination.name)) {
      const link = destination.connect(env, (line) => console.error(line));
      links.set(destination.name, link === null || link === "held" ? null : link);
    }
    return links.get(destination.name) ?? null;
  };
  for (const { id, holding } of erased) {
    for (const name of holding) {
      const destination = destinationNamed(name);
      const { erasure } = destination;
      if (erasure.told) await tellErasure(destination, erasure, linkOf(destination), id, now);
      else console.log(`${id}: may hold it, cannot be told: ${name} — ${erasure.byHand}.`);
    }
  }
}

/** Tells one destination of one erasure and says whether it took it (its host only, never its URL). */
async function tellErasure(
  destination: Destination<DestinationName, unknown>,
  erasure: Extract<ErasureWay, { told: true }>,
  link: DestinationLink | null,
  id: string,
  erasedAt: Date,
) {
  const { name } = destination;
  if (!link?.tellErased) {
    const settings = destination.settings.filter((setting) => env[setting] === undefined);
    console.log(
      `${id}: may hold it, not told: ${name} (${settings.join(" and ")} ${settings.length === 1 ? "is" : "are"} not set in this shell) — erase it at ${erasure.where} by hand.`,
    );
    process.exitCode = 1;
    return;
  }
  const outcome = await tellErased(link.tellErased, id, erasedAt);
  const tries = plural(outcome.attempts, "attempt");
  const host = link.host ?? destination.title;
  logLine({ event: erasure.event, id, host, took: outcome.took, attempts: outcome.attempts });
  if (outcome.took) {
    console.log(`${id}: may hold it, told: ${name} (${host} took ${erasure.event}, ${tries}).`);
    return;
  }
  console.log(
    `${id}: may hold it, not told: ${name} (${host} did not take ${erasure.event}: ${outcome.error.cause}, ${tries}) — erase it there by hand.`,
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
  const since = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  const rows = await leadsPerSource(store, since);
  const period = `the last ${plural(days, "day")} (since ${since.toISOString().replace("T", " ").slice(0, 16)} UTC)`;
  if (rows.length === 0) return console.log(`No leads in ${period}.`);
  console.log(
    `Leads per source over ${period}: delivered (sent), waiting (pending, inbox, failed), quarantined (spam).`,
  );
  printTable(
    rows.map((row) => ({
      source: showInvisible(row.source),
      medium: showInvisible(row.medium),
      campaign: showInvisible(row.campaign),
      delivered: row.delivered,
      waiting: row.waiting,
      quarantined: row.quarantined,
    })),
  );
}

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}
