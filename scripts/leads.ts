// `npm run leads`: the operator's view of the lead store, safe while the server runs.
//   npm run leads                      newest first: time, state, attempts, name, e-mail, last error
//   npm run leads -- --json            one JSON object per lead per line
//   npm run leads -- retry ID          puts a failed (or inbox) lead back in the delivery queue
//   npm run leads -- retry --failed    puts every failed lead back in the queue
//   npm run leads -- --health          the store as the folder shows it, without the server
// It reads ENQUIRY_STORE_DIR as the server does (default ./data), with the store's own rules
// (app/leads/store.server.ts). `npm run build` bundles it into build/leads.js
// (scripts/build-commands.js), so the production image has it too.
import { join } from "node:path";
import { env } from "~/env.server";
import { describeLeads } from "~/leads/health";
import type { Lead } from "~/leads/lead";
import { readLockHolder } from "~/leads/lock.server";
import { requeue } from "~/leads/schedule";
import { createLeadStore, leadsFolder, MAX_LEADS } from "~/leads/store.server";
import { showInvisible } from "~/text/invisible-characters";
import { printTable } from "./lib/server.js";

const store = createLeadStore({ folder: leadsFolder(env.ENQUIRY_STORE_DIR), create: false });
const args = process.argv.slice(2);
const emailJsConfigured = Boolean(
  env.EMAILJS_SERVICE_ID && env.EMAILJS_TEMPLATE_ID && env.EMAILJS_PUBLIC_KEY,
);

try {
  if (args[0] === "retry" && args.length === 2) await retry(args[1] as string);
  else if (args.length === 1 && args[0] === "--health") await health();
  else if (args.length === 0 || (args.length === 1 && args[0] === "--json")) await list(args[0] === "--json");
  else usage();
} catch (error) {
  console.error(
    `leads: cannot read ${store.folder}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}

async function list(json: boolean) {
  const leads = (await store.scan()).reverse();
  if (json) {
    // JSON.stringify leaves bidi and other invisible characters raw: escaped, they still parse the same.
    for (const lead of leads) console.log(showInvisible(JSON.stringify(flatten(lead)), "json"));
    return;
  }
  if (leads.length === 0) {
    console.log(`No leads in ${store.folder}.`);
    return;
  }
  printTable(
    leads.map((lead) => ({
      time: lead.receivedAt.replace("T", " ").slice(0, 19),
      state: lead.state,
      attempts: lead.attempts,
      name: showInvisible(lead.enquiry.name),
      "e-mail": showInvisible(lead.enquiry.email),
      "last error": showInvisible(lead.lastError ?? ""),
    })),
  );
}

function flatten(lead: Lead) {
  const { enquiry, id, receivedAt, state, attempts, lastError, nextAttemptAt } = lead;
  return { id, receivedAt, state, attempts, lastError, nextAttemptAt, ...enquiry };
}

async function retry(which: string) {
  const leads = await store.scan();
  // Only leads the deliverer never writes: a failed or inbox lead is the operator's alone.
  const chosen =
    which === "--failed"
      ? leads.filter((lead) => lead.state === "failed")
      : leads.filter((lead) => lead.id === which && (lead.state === "failed" || lead.state === "inbox"));
  if (chosen.length === 0 && which !== "--failed") {
    const found = leads.find((lead) => lead.id === which);
    console.error(
      found
        ? `leads: ${which} is ${found.state}, not failed: nothing to retry`
        : `leads: no lead ${showInvisible(which)}`,
    );
    process.exit(1);
  }
  if (!emailJsConfigured && chosen.some((lead) => lead.state === "inbox")) {
    console.error(
      `leads: ${which} is an inbox lead and no EmailJS is configured (EMAILJS_SERVICE_ID, EMAILJS_TEMPLATE_ID, EMAILJS_PUBLIC_KEY): nothing would deliver it, so it stays in the inbox`,
    );
    process.exit(1);
  }
  const now = new Date();
  for (const lead of chosen) await store.save(requeue(lead, now));
  console.log(
    `${chosen.length} lead${chosen.length === 1 ? "" : "s"} back in the queue: the running server delivers ${chosen.length === 1 ? "it" : "them"} within a few seconds.`,
  );
}

/** What the folder itself tells, without the server: a write probe, the counts, the lock. */
async function health() {
  const leads = await store.scan();
  const written = await store.probe();
  const { store: state, leads: counts } = describeLeads({ leads, lastWrite: written, maxLeads: MAX_LEADS });
  const count = (wanted: Lead["state"]) => leads.filter((lead) => lead.state === wanted).length;
  console.log(
    `store: ${state}${written.ok ? "" : ` (a test write failed: ${written.error})`} in ${store.folder}`,
  );
  console.log(
    `leads: ${counts.pending} pending${counts.pending > 0 ? ` (oldest ${counts.oldestPendingSeconds} s)` : ""}, ${counts.failed} failed, ${count("inbox")} inbox, ${count("sent")} sent`,
  );
  const holder = await readLockHolder(join(store.folder, "deliverer.lock"));
  console.log(
    holder
      ? `delivery: held by process ${showInvisible(holder.token) || "(unnamed)"}${holder.since ? ` since ${showInvisible(holder.since)}` : ""}, heartbeat ${(holder.heartbeatAgeMs / 1000).toFixed(1)} s ago${holder.stale ? " (stale: the next server to look takes over)" : ""}`
      : "delivery: no process holds the lock (no server running on this folder)",
  );
  if (state === "unusable") process.exit(1);
}

function usage() {
  console.error("usage: npm run leads [-- --json | -- --health | -- retry ID | -- retry --failed]");
  process.exit(2);
}
