// `npm run leads`: the operator's view of the lead store, safe while the server runs.
//   npm run leads                      newest first: time, state, attempts, name, e-mail, source, last error
//   npm run leads -- --json            one JSON object per lead per line
//   npm run leads -- --sources [--days N]   leads per source, medium and campaign over the last N days (30)
//   npm run leads -- --spam [--json]   the quarantine: what the honeypot, block list and headless rule caught
//   npm run -s leads -- --csv [--since DATE] [--state STATE] [--spam] > leads.csv   a spreadsheet of the leads
//   npm run leads -- retry ID          puts a failed (or inbox) lead back in the delivery queue
//   npm run leads -- retry --failed    puts every failed lead back in the queue
//   npm run leads -- release ID        moves a quarantined lead into the delivery queue
//   npm run leads -- find EMAIL|PHONE [--json]   every lead of one person, in any state
//   npm run leads -- erase EMAIL|PHONE           deletes them all, for good
//   npm run leads -- --health          the store as it shows itself, without the server
// Its forms are listed in scripts/lib/command-forms.ts. It reads the store the server uses: the
// database when DATABASE_URL is set, otherwise ENQUIRY_STORE_DIR (default ./data), with the
// store's own rules (app/leads/). What it queues, the running server routes: EmailJS when it has
// it, otherwise its inbox. `npm run build` bundles it into build/leads.js
// (scripts/build-commands.js), so the production image has it too.
import { openCommandDatabase } from "~/db/command-database.server";
import type { Database } from "~/db/database.server";
import { env } from "~/env.server";
import { isPerson, parsePersonQuery } from "~/lead-parts/person";
import { channelOf, describeSource } from "~/lead-parts/source";
import { type LeadStore, MAX_LEADS } from "~/leads/contract.server";
import { delivererLockPath, readFolderLockHolder } from "~/leads/folder/lock.server";
import { createFolderLeadStore, leadsFolder } from "~/leads/folder/store.server";
import { describeLeads } from "~/leads/health-report";
import { deliverySummary, type Lead, UNDELIVERED_STATES } from "~/leads/lead";
import { readPostgresLockHolder } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { release, requeue } from "~/leads/retry-policy";
import { showInvisible } from "~/text/invisible-characters";
import { type FormName, optionProblem, readArguments, usageLine } from "./lib/command-forms";
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
const database = env.DATABASE_URL ? await openCommandDatabase("leads", env.DATABASE_URL) : null;
const store: LeadStore = database
  ? createPostgresLeadStore({ database, log: (line) => console.error(line) })
  : createFolderLeadStore({ folder: leadsFolder(env.ENQUIRY_STORE_DIR), create: false });

/** What each form of the command does (scripts/lib/command-forms.ts lists the forms). */
const run: Record<FormName<"leads">, () => Promise<void>> = {
  list: () => list(false),
  spam: () => list(true),
  csv: () => csv(csvFilter),
  sources: () => sources(30),
  sourcesOver: () => sources(Number(value)),
  health,
  retryFailed: () => retry("--failed"),
  retry: () => retry(value),
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

/** The inbox view (every lead not quarantined), or with `spam` the quarantine, newest first. */
async function list(spam: boolean) {
  const all = (await store.list()).reverse();
  const leads = all.filter((lead) => (lead.state === "spam") === spam);
  if (json) return printJson(leads);
  if (leads.length === 0) console.log(spam ? "The quarantine is empty." : `No leads in ${store.folder}.`);
  else if (spam) {
    printTable(
      leads.map((lead) => ({
        time: time(lead),
        reason: lead.reason ?? "",
        id: lead.id,
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
        attempts: deliverySummary(lead).attempts,
        name: showInvisible(lead.enquiry.name),
        "e-mail": showInvisible(lead.enquiry.email),
        source: sourceOf(lead),
        "last error": showInvisible(deliverySummary(lead).lastError ?? ""),
      })),
    );
  }
  const quarantined = all.length - leads.length;
  if (!spam && quarantined > 0) {
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
  const start = since === undefined ? Number.NEGATIVE_INFINITY : Date.parse(`${since}T00:00:00Z`);
  const leads = (await store.list()).filter(
    (lead) =>
      (state === undefined ? lead.state !== "spam" : lead.state === state) &&
      Date.parse(lead.receivedAt) >= start,
  );
  try {
    await writeLeadsCsv(leads, process.stdout);
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
    const { enquiry, id, receivedAt, state, reason, releasedAt } = lead;
    const { attempts, lastError, nextAttemptAt } = deliverySummary(lead);
    const { source, privacyNotice } = lead;
    const notes = {
      ...(reason ? { reason } : {}),
      ...(releasedAt ? { releasedAt } : {}),
      ...(source ? { source } : {}),
      ...(privacyNotice ? { privacyNotice } : {}),
    };
    // `destinations`: each destination's own record (the flat fields sum them up, as before destinations).
    const { destinations } = lead;
    const flat = {
      id,
      receivedAt,
      state,
      attempts,
      lastError,
      nextAttemptAt,
      destinations,
      ...notes,
      ...enquiry,
    };
    // JSON.stringify leaves bidi and other invisible characters raw: escaped, they still parse the same.
    console.log(showInvisible(JSON.stringify(flat), "json"));
  }
}

/** One JSON line for the operator's log: ids and counts, never the person's data. */
function logLine(fields: Record<string, unknown>) {
  console.error(JSON.stringify(fields));
}

async function retry(which: string) {
  const leads = await store.list();
  // Only leads the deliverer never writes: a failed or inbox lead is the operator's alone.
  const chosen =
    which === "--failed"
      ? leads.filter((lead) => lead.state === "failed")
      : leads.filter((lead) => lead.id === which && (lead.state === "failed" || lead.state === "inbox"));
  if (chosen.length === 0 && which !== "--failed") {
    const found = leads.find((lead) => lead.id === which);
    fail(
      found
        ? `leads: ${which} is ${found.state}, not failed: nothing to retry`
        : `leads: no lead ${showInvisible(which)}`,
    );
  }
  const now = new Date();
  for (const lead of chosen) await store.save(requeue(lead, now));
  console.log(
    `${plural(chosen.length, "lead")} back in the queue: the running server delivers ${chosen.length === 1 ? "it" : "them"} within a few seconds (one without EmailJS files ${chosen.length === 1 ? "it" : "them"} in its inbox).`,
  );
}

async function releaseLead(id: string) {
  const lead = (await store.list()).find((candidate) => candidate.id === id);
  if (!lead) fail(`leads: no lead ${showInvisible(id)}`);
  if (lead.state !== "spam") fail(`leads: ${id} is ${lead.state}, not in the quarantine: nothing to release`);
  // Queued whatever this shell's EmailJS variables say: the running server routes it (a server
  // without EmailJS files it in its inbox).
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
    `Released ${id} (${lead.reason}) into the delivery queue: the running server sends it within a few seconds (one without EmailJS files it in its inbox).`,
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

async function find(who: string) {
  const leads = (await personLeads(who)).reverse();
  if (json) return printJson(leads);
  if (leads.length === 0) return console.log("No lead of that person.");
  printTable(
    leads.map((lead) => ({
      time: time(lead),
      state: lead.state,
      reason: lead.reason ?? "",
      id: lead.id,
      name: showInvisible(lead.enquiry.name),
      "e-mail": showInvisible(lead.enquiry.email),
      phone: `+${lead.enquiry.countryCode} ${lead.enquiry.phoneNumber}`,
    })),
  );
  console.log(
    `${plural(leads.length, "lead")}. Delete them all with: npm run leads -- erase ${showInvisible(who)}`,
  );
}

async function erase(who: string) {
  const leads = await personLeads(who);
  for (const lead of leads) await store.erase(lead);
  logLine({ event: "erase", leads: leads.length });
  console.log(`Erased ${plural(leads.length, "lead")} of that person.`);
}

/** What the store itself tells, without the server: a write probe, the counts, the deliverer. */
async function health() {
  const written = await store.probe();
  const counts = await store.counts();
  const { store: state, leads } = describeLeads({ counts, lastWrite: written, maxLeads: MAX_LEADS });
  console.log(
    `store: ${state}${written.ok ? "" : ` (a test write failed: ${written.error})`} in ${store.folder}`,
  );
  console.log(
    `leads: ${leads.pending} pending${leads.pending > 0 ? ` (oldest ${leads.oldestPendingSeconds} s)` : ""}, ${leads.failed} failed, ${counts.inbox} inbox, ${counts.sent} sent, ${leads.spam} in the quarantine`,
  );
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
