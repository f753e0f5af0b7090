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
//   npm run leads -- --withdrawn [--json]   the leads withdrawn on /privacy/withdraw still to clean up, and withdrawals per day
//   npm run leads -- withdrawn-done ID   marks a withdrawn lead's clean-up done
//   npm run leads -- --health          the store as it shows itself, without the server
// A command line over app/leads/operations/, which does the work on the store's contract, a page
// of leads at a time; its forms are listed in app/leads/operations/command-forms.ts. It reads the
// store the server uses: the database when DATABASE_URL is set, otherwise ENQUIRY_STORE_DIR
// (default ./data), with the store's own rules (app/leads/). What it queues, the running server routes: to each destination
// it has configured (app/destinations/registry.server.ts), otherwise to its inbox. Each form prints
// through its module of scripts/lib/leads/. `npm run build` bundles it into build/leads.js
// (scripts/build-commands.js), so the production image has it too.
import { openCommandDatabase } from "~/db/command-database.server";
import type { Database } from "~/db/database.server";
import { env } from "~/env.server";
import type { LeadStore } from "~/leads/contract.server";
import { createFolderLeadStore, leadsFolder } from "~/leads/folder/store.server";
import { createFolderWithdrawals, withdrawalsFolder } from "~/leads/folder/withdrawals.server";
import type { FormName } from "~/leads/operations/command-forms";
import { OperationRefused } from "~/leads/operations/refused";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { createPostgresWithdrawals } from "~/leads/postgres/withdrawals.server";
import type { WithdrawalStore } from "~/leads/withdrawals.server";
import { readLeadsArguments } from "./lib/leads/arguments";
import { release, retry } from "./lib/leads/changes";
import { csv } from "./lib/leads/csv";
import { erase } from "./lib/leads/erase";
import { find } from "./lib/leads/find";
import { health } from "./lib/leads/health";
import { list } from "./lib/leads/list";
import type { LeadsCommand } from "./lib/leads/output";
import { sources } from "./lib/leads/sources";
import { withdrawn, withdrawnDone } from "./lib/leads/withdrawn";

const args = readLeadsArguments(process.argv.slice(2));
const { value, to, listState } = args;
const database = env.DATABASE_URL ? await openCommandDatabase("leads", env.DATABASE_URL) : null;
const { store, withdrawals } = openStores(database);
const command: LeadsCommand = { store, database, json: args.json };

/** The leads and their withdrawals, where the server keeps them: the database, or the data folder. */
function openStores(database: Database | null): { store: LeadStore; withdrawals: WithdrawalStore } {
  if (database) {
    return {
      store: createPostgresLeadStore({ database, log: (line) => console.error(line) }),
      withdrawals: createPostgresWithdrawals({ database }),
    };
  }
  const folder = createFolderLeadStore({ folder: leadsFolder(env.ENQUIRY_STORE_DIR), create: false });
  return {
    store: folder,
    withdrawals: createFolderWithdrawals({ store: folder, folder: withdrawalsFolder(env.ENQUIRY_STORE_DIR) }),
  };
}

/** What each form of the command does (app/leads/operations/command-forms.ts lists the forms). */
const run: Record<FormName<"leads">, () => Promise<void>> = {
  list: () =>
    listState === undefined ? list(command, false) : list(command, listState === "spam", listState),
  spam: () => list(command, true),
  csv: () => csv(store, args.csvFilter),
  sources: () => sources(store, 30),
  sourcesOver: () => sources(store, Number(value)),
  health: () => health(command),
  retryFailed: () => retry(store, "--failed", to),
  retry: () => retry(store, value, to),
  release: () => release(store, value),
  find: () => find(command, value),
  erase: () => erase(store, value),
  withdrawn: () => withdrawn(withdrawals, args.json),
  withdrawnDone: () => withdrawnDone(withdrawals, value),
};

try {
  await run[args.form]();
} catch (error) {
  const changes = ["retry", "retryFailed", "release", "erase", "withdrawnDone"].includes(args.form);
  console.error(
    error instanceof OperationRefused
      ? `leads: ${error.message}`
      : `leads: cannot ${changes ? "change" : "read"} ${store.folder}${database ? " (DATABASE_URL)" : ""}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await database?.stop();
}
