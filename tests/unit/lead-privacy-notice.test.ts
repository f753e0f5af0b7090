import { describe, expect, it } from "vitest";
import { type Lead, leadFileText, newLead, parseLead } from "~/leads/lead";
import { type LeadRow, leadFromRow, leadValues } from "~/leads/postgres/rows.server";
import { describePrivacyNotice, parsePrivacyNoticeRecord } from "~/privacy-notice/record";

const shown = { version: "2026-11-26", language: "hi", sha256: "c4".repeat(32) };

const lead = newLead({
  id: "0b7f8c1e-2a4d-4c6e-9f10-3a5b7c9d1e2f",
  enquiry: { name: "Asha", email: "a@example.in", countryCode: "91", phoneNumber: "9876543210", message: "" },
  destinations: ["emailjs"],
  at: new Date("2026-11-26T10:00:00Z"),
  privacyNotice: shown,
});

/** The row PostgreSQL gives back for `values` (timestamps as Date, jsonb parsed). */
function rowOf(values: unknown[], privacyNotice: unknown): LeadRow {
  const [id, receivedAt, state, attempts, lastError, nextAttemptAt, queuedAt, enquiry] = values;
  return {
    id: id as string,
    received_at: new Date(receivedAt as string),
    state: state as string,
    attempts: attempts as number,
    last_error: lastError as string | null,
    next_attempt_at: new Date(nextAttemptAt as string),
    queued_at: new Date(queuedAt as string),
    enquiry: JSON.parse(enquiry as string),
    reason: null,
    released_at: null,
    source: null,
    privacy_notice: privacyNotice,
  };
}

const unreadable = [
  ["a string", "2026-11-26 hi"],
  ["no hash", { version: "2026-11-26", language: "hi" }],
  ["a hash that is not SHA-256 hex", { ...shown, sha256: "not-a-hash" }],
  ["a version with a line break", { ...shown, version: "2026-11-26\nhi" }],
] as const;

describe("a lead's privacy notice record", () => {
  it("is read back from a lead file and from a row", () => {
    expect(parseLead(leadFileText(lead))?.privacyNotice).toEqual(shown);
    const values = leadValues(lead);
    expect(JSON.parse(values.at(11) as string)).toEqual(shown);
    expect(leadFromRow(rowOf(values, shown))).toEqual(lead);
  });

  it("is absent from a lead without it: a NULL column, or a row read without the column", () => {
    const { privacyNotice: _, ...before } = lead;
    expect(leadValues(before).at(11)).toBeNull();
    expect(leadFromRow(rowOf(leadValues(before), null))).toEqual(before);
    expect(leadFromRow(rowOf(leadValues(before), undefined))).toEqual(before);
  });

  it.each(unreadable)("is dropped when it is %s, never the lead", (_, value) => {
    expect(parsePrivacyNoticeRecord(value)).toBeUndefined();
    const read = parseLead(leadFileText({ ...lead, privacyNotice: value } as Lead));
    expect(read).not.toHaveProperty("privacyNotice");
    expect(read?.id).toBe(lead.id);
    expect(leadFromRow(rowOf(leadValues(lead), value))).not.toHaveProperty("privacyNotice");
  });

  it("is one short line in the mail and the log, empty when not known", () => {
    expect(describePrivacyNotice(shown)).toBe("2026-11-26 hi");
    expect(describePrivacyNotice(undefined)).toBe("");
  });
});
