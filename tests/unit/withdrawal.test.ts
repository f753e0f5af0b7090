import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { withdrawalHint } from "~/content/withdrawal";
import { referenceLineHtml } from "~/enquiry/reference-line.server";
import { leadReference, referenceIdRange } from "~/lead-parts/reference";
import { readWithdrawal } from "~/withdrawal/form.server";
import { createWithdrawalLimits, takeWithdrawalUnits } from "~/withdrawal/limits.server";

const form = (fields: Record<string, string | string[]>) =>
  new Map(Object.entries(fields).map(([name, value]) => [name, [value].flat()]));

describe("a posted withdrawal", () => {
  it("reads the reference as a person types it and the address in lower case", () => {
    expect(readWithdrawal(form({ reference: " nrm 79zh rawx ", email: " Asha@Example.IN " }))).toEqual({
      ok: true,
      request: { reference: "NRM-79ZH-RAWX", address: "asha@example.in" },
      values: { reference: " nrm 79zh rawx ", email: " Asha@Example.IN " },
    });
  });

  it("names each field that cannot be one, and gives back what was typed", () => {
    const refused = (fields: Record<string, string | string[]>) => {
      const read = readWithdrawal(form(fields));
      return read.ok ? [] : read.errors;
    };
    expect(refused({ reference: "NRM-79ZH", email: "asha" })).toEqual(["reference", "email"]);
    expect(refused({ reference: "NRM-79ZH-RAWX", email: "asha@example" })).toEqual(["email"]);
    expect(refused({ reference: "NRM-79ZH-RAWU", email: "asha@example.in" })).toEqual(["reference"]);
    // Invisible characters, a field posted twice, or past 254 characters are no address.
    expect(refused({ reference: "NRM-79ZH-RAWX", email: "asha\u00ad@example.in" })).toEqual(["email"]);
    expect(refused({ reference: ["NRM-79ZH-RAWX", "NRM-0000-0000"], email: "asha@example.in" })).toEqual([
      "reference",
    ]);
    const long = `${"a".repeat(260)}@example.in`;
    const read = readWithdrawal(form({ reference: "NRM-79ZH-RAWX", email: long }));
    expect(read.ok ? [] : read.errors).toEqual(["email"]);
    expect(read.values.email).toHaveLength(254);
  });
});

describe("a reference's ids", () => {
  it("are the UUIDs that begin with its 40 bits, and only those", () => {
    for (let index = 0; index < 200; index += 1) {
      const id = randomUUID();
      const { lowest, highest } = referenceIdRange(leadReference(id));
      expect(lowest <= id && id <= highest, id).toBe(true);
      expect(leadReference(lowest)).toBe(leadReference(id));
      expect(leadReference(highest)).toBe(leadReference(id));
    }
    expect(referenceIdRange("NRM-0000-0000")).toEqual({
      lowest: "00000000-0000-0000-0000-000000000000",
      highest: "00000000-00ff-ffff-ffff-ffffffffffff",
    });
  });
});

describe("the success notice's reference line", () => {
  it("shows the reference and links to the withdrawal page with the content's words, for a reference only", () => {
    const html = referenceLineHtml("NRM-79ZH-RAWX", "Your reference:") ?? "";
    expect(html).toContain(">NRM-79ZH-RAWX</strong>");
    expect(html).toContain('href="/privacy/withdraw"');
    expect(html).toContain(`>${withdrawalHint.label}</a>`);
    expect(referenceLineHtml('NRM-79ZH-RAWX"><script>', "Your reference:")).toBeNull();
  });
});

describe("the withdrawal's limits", () => {
  const env = {
    WITHDRAWAL_REFERENCE_LIMIT: 2,
    WITHDRAWAL_RATE_LIMIT: 3,
    WITHDRAWAL_SITE_LIMIT: 4,
    WITHDRAWAL_RATE_WINDOW: 3600,
    NOTICE_SECRET: "withdrawal-limits-test-secret-0123456789abcdef",
  };
  const outcome = async (taking: ReturnType<typeof takeWithdrawalUnits>) => {
    const taken = await taking;
    return taken.allowed ? "allowed" : taken.by;
  };

  it("hold per reference whoever tries it, per known client, and site-wide for clients without an address", async () => {
    const limits = createWithdrawalLimits(env);
    const tries = [];
    for (const client of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      tries.push(await outcome(takeWithdrawalUnits(limits, client, "NRM-79ZH-RAWX")));
    }
    expect(tries).toEqual(["allowed", "allowed", "per-reference tries"]);
    const client = [];
    for (const reference of ["NRM-0000-0001", "NRM-0000-0002", "NRM-0000-0003"]) {
      client.push(await outcome(takeWithdrawalUnits(limits, "203.0.113.1", reference)));
    }
    expect(client).toEqual(["allowed", "allowed", "per-client tries"]);
    const unknown = [];
    for (const reference of [
      "NRM-0000-0011",
      "NRM-0000-0012",
      "NRM-0000-0013",
      "NRM-0000-0014",
      "NRM-0000-0015",
    ]) {
      unknown.push(await outcome(takeWithdrawalUnits(limits, null, reference)));
    }
    expect(unknown).toEqual(["allowed", "allowed", "allowed", "allowed", "site-wide tries"]);
  });

  it("count a reference by a key that is not the reference, the same on every server with one NOTICE_SECRET", () => {
    const one = createWithdrawalLimits(env).referenceKey("NRM-79ZH-RAWX");
    expect(one).not.toContain("79ZH");
    expect(createWithdrawalLimits(env).referenceKey("NRM-79ZH-RAWX")).toBe(one);
    expect(
      createWithdrawalLimits({ ...env, NOTICE_SECRET: undefined }).referenceKey("NRM-79ZH-RAWX"),
    ).not.toBe(one);
  });
});
