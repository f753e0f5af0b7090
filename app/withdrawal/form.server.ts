/** Reads a posted withdrawal: the reference and the e-mail address as a store looks them up, or which field cannot be one. */
import { EMAIL_PATTERN } from "~/enquiry/schema.server";
import { parseReference } from "~/lead-parts/reference";
import type { WithdrawalRequest } from "~/leads/withdrawals.server";
import { hasInvisibleInAnAddress } from "~/text/invisible-characters";
import { WITHDRAWAL_FIELDS, type WithdrawalField, type WithdrawalValues } from "./answers";

/** Longer than any reference or address a person types: not read further. */
const MAX_TYPED = 254;

export type ReadWithdrawal =
  | { ok: true; request: WithdrawalRequest; values: WithdrawalValues }
  | { ok: false; errors: WithdrawalField[]; values: WithdrawalValues };

/**
 * The posted fields as a withdrawal: the reference as the site writes it (read leniently, as
 * `npm run leads -- find` reads one) and the address in lower case. A field that cannot be one (no
 * reference's shape, no address) is named; such an error says nothing of what is stored.
 */
export function readWithdrawal(fields: Map<string, string[]>): ReadWithdrawal {
  const single = (name: string) => {
    const values = fields.get(name);
    return values?.length === 1 ? (values[0] ?? "") : "";
  };
  const typed = { reference: single(WITHDRAWAL_FIELDS.reference), email: single(WITHDRAWAL_FIELDS.email) };
  // What the page shows again: a field past MAX_TYPED is refused, and given back cut to it.
  const values: WithdrawalValues = {
    reference: typed.reference.slice(0, MAX_TYPED),
    email: typed.email.slice(0, MAX_TYPED),
  };
  const reference = typed.reference.length <= MAX_TYPED ? parseReference(typed.reference) : null;
  const address = typed.email.trim();
  const addressOk =
    typed.email.length <= MAX_TYPED && EMAIL_PATTERN.test(address) && !hasInvisibleInAnAddress(address);
  const errors: WithdrawalField[] = [];
  if (reference === null) errors.push("reference");
  if (!addressOk) errors.push("email");
  if (reference === null || errors.length > 0) return { ok: false, errors, values };
  return { ok: true, request: { reference, address: address.toLowerCase() }, values };
}
