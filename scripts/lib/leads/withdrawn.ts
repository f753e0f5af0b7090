/** `npm run leads -- --withdrawn` and `withdrawn-done`: the withdrawn leads the team must still clean up, and marking one done. */
import { leadReference } from "~/lead-parts/reference";
import { refuse } from "~/leads/operations/refused";
import { holdingLine, withdrawalJson } from "~/leads/operations/withdrawn";
import type { WithdrawalStore } from "~/leads/withdrawals.server";
import { printTable } from "../table.js";
import { logLine, plural } from "./output";

/** Days of withdrawals counted below the list. */
const COUNTED_DAYS = 30;

/**
 * The withdrawn leads whose clean-up no operator has marked done, oldest first (when, id,
 * reference, what may hold each and what is left to do there), then the withdrawals per day over
 * the last 30 days; `--json`: one line per withdrawn lead.
 */
export async function withdrawn(withdrawals: WithdrawalStore, json: boolean) {
  const open = await withdrawals.open();
  if (json) {
    for (const withdrawal of open) console.log(JSON.stringify(withdrawalJson(withdrawal)));
    return;
  }
  if (open.length === 0) console.log("No withdrawn lead is left to clean up.");
  else {
    printTable(
      open.map((withdrawal) => ({
        withdrawn: withdrawal.withdrawnAt.replace("T", " ").slice(0, 19),
        id: withdrawal.leadId,
        reference: leadReference(withdrawal.leadId),
        "may hold": holdingLine(withdrawal),
      })),
    );
    console.log(
      `${plural(open.length, "withdrawn lead")} to clean up. Once a lead's copies are erased, run: npm run leads -- withdrawn-done ID`,
    );
  }
  const since = new Date(Date.now() - COUNTED_DAYS * 24 * 60 * 60_000);
  const days = await withdrawals.perDay(since);
  const total = days.reduce((sum, day) => sum + day.withdrawals, 0);
  console.log(
    total === 0
      ? `No withdrawal in the last ${COUNTED_DAYS} days.`
      : `Withdrawals in the last ${COUNTED_DAYS} days: ${total} (${days.map((day) => `${day.day}: ${day.withdrawals}`).join(", ")}).`,
  );
}

/** Marks lead `id`'s clean-up done: it leaves the list. */
export async function withdrawnDone(withdrawals: WithdrawalStore, id: string) {
  const outcome = await withdrawals.markDone(id.trim().toLowerCase(), new Date());
  if (outcome === "unknown") refuse(`no withdrawn lead ${id} (the list: npm run leads -- --withdrawn)`);
  logLine({ event: "withdrawn-done", id, outcome });
  console.log(
    outcome === "done"
      ? `Lead ${id} marked done: its withdrawal is cleaned up.`
      : `Lead ${id} was marked done already.`,
  );
}
