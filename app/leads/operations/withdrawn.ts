/**
 * The withdrawn leads as the operator reads them (`npm run leads -- --withdrawn`): what may hold
 * each and what is left to do there, and the JSON line of one.
 */
import { destinationNamed } from "~/destinations/lookup.server";
import { leadReference } from "~/lead-parts/reference";
import type { DeliveryRecord } from "~/leads/lead";
import type { Withdrawal } from "~/leads/withdrawals.server";

const attempts = (record: DeliveryRecord) => `${record.attempts} attempt${record.attempts === 1 ? "" : "s"}`;

/**
 * Each destination that may hold the lead, and what became of it: `emailjs: delete its mail from
 * the agency's mailbox` (it cannot be told), `webhook: told (1 attempt)`, `webhook: being told (3
 * attempts, HTTP 502)`, `webhook: not told (HTTP 410, 3 attempts) — erase it at the webhook's
 * receiver by hand`; `none` when no destination got it.
 */
export function holdingLine(withdrawal: Withdrawal): string {
  if (withdrawal.holding.length === 0) return "none";
  return withdrawal.holding
    .map((name) => {
      const { erasure } = destinationNamed(name);
      if (!erasure.told) return `${name}: ${erasure.byHand}`;
      const record = withdrawal.notices[name];
      if (!record) return `${name}: not told — erase it at ${erasure.where} by hand`;
      if (record.state === "sent") return `${name}: told (${attempts(record)})`;
      const error = record.lastError ? `, ${record.lastError}` : "";
      if (record.state === "pending") return `${name}: being told (${attempts(record)}${error})`;
      return `${name}: not told (${record.lastError ?? "refused"}, ${attempts(record)}) — erase it at ${erasure.where} by hand`;
    })
    .join(" · ");
}

/** One withdrawn lead as `--withdrawn --json` prints it: ids, times and states, nothing of the person. */
export function withdrawalJson(withdrawal: Withdrawal) {
  return {
    id: withdrawal.leadId,
    reference: leadReference(withdrawal.leadId),
    withdrawnAt: withdrawal.withdrawnAt,
    holding: withdrawal.holding,
    notices: withdrawal.notices,
    doneAt: withdrawal.doneAt,
  };
}
