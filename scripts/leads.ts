// `npm run leads`: the operator's view of the lead store, safe while the server runs.
//   npm run leads                      newest first: time, state, attempts, name, e-mail, last error
//   npm run leads -- --json            one JSON object per lead per line
//   npm run leads -- retry ID          puts a failed (or inbox) lead back in the delivery queue
//   npm run leads -- retry --failed    puts every failed lead back in the queue
// It reads ENQUIRY_STORE_DIR as the server does (default ./data). `npm run build` bundles it
// into build/leads.js (scripts/build-commands.js), so the production image has it too.
import { env } from "~/env.server";
import type { Lead } from "~/leads/lead";
import { requeue } from "~/leads/schedule";
import { createLeadStore, leadsFolder } from "~/leads/store.server";
import { printTable } from "./lib/server.js";

const store = createLeadStore({ folder: leadsFolder(env.ENQUIRY_STORE_DIR), create: false });
const args = process.argv.slice(2);

try {
  if (args[0] === "retry") await retry(args[1]);
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
    for (const lead of leads) console.log(JSON.stringify(flatten(lead)));
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
      name: lead.enquiry.name,
      "e-mail": lead.enquiry.email,
      "last error": lead.lastError ?? "",
    })),
  );
}

function flatten(lead: Lead) {
  const { enquiry, id, receivedAt, state, attempts, lastError, nextAttemptAt } = lead;
  return { id, receivedAt, state, attempts, lastError, nextAttemptAt, ...enquiry };
}

async function retry(which: string | undefined) {
  if (which === undefined) return usage();
  const leads = await store.scan();
  // Only leads the deliverer never writes: a failed or inbox lead is the operator's alone.
  const chosen =
    which === "--failed"
      ? leads.filter((lead) => lead.state === "failed")
      : leads.filter((lead) => lead.id === which && (lead.state === "failed" || lead.state === "inbox"));
  if (chosen.length === 0 && which !== "--failed") {
    const found = leads.find((lead) => lead.id === which);
    console.error(
      found ? `leads: ${which} is ${found.state}, not failed: nothing to retry` : `leads: no lead ${which}`,
    );
    process.exit(1);
  }
  const now = new Date();
  for (const lead of chosen) await store.save(requeue(lead, now));
  console.log(
    `${chosen.length} lead${chosen.length === 1 ? "" : "s"} back in the queue: the running server delivers ${chosen.length === 1 ? "it" : "them"} within a few seconds.`,
  );
}

function usage() {
  console.error("usage: npm run leads [-- --json | -- retry ID | -- retry --failed]");
  process.exit(2);
}
