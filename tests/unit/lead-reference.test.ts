import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  leadReference,
  leadsWithReference,
  parseReference,
  REFERENCE,
  randomReference,
} from "~/lead-parts/reference";

describe("an enquiry's reference", () => {
  it("is the first 40 bits of the lead's id in Crockford's base 32, in two groups of four", () => {
    expect(leadReference("3a7f1c2b-9d00-4e6a-8b1c-0123456789ab")).toBe("NRM-79ZH-RAWX");
    expect(leadReference("00000000-0000-4000-8000-000000000000")).toBe("NRM-0000-0000");
    expect(leadReference("ffffffff-ffff-4fff-bfff-ffffffffffff")).toBe("NRM-ZZZZ-ZZZZ");
    // Only the first ten hex digits count: the rest of the id does not change it.
    expect(leadReference("3a7f1c2b-9dff-4fff-bfff-ffffffffffff")).toBe("NRM-79ZH-RAWX");
    expect(leadReference("3a7f1c2b-9e00-4e6a-8b1c-0123456789ab")).not.toBe("NRM-79ZH-RAWX");
  });

  it("has no ambiguous character, and a random one has the same shape", () => {
    for (let index = 0; index < 500; index += 1) {
      for (const reference of [leadReference(randomUUID()), randomReference()]) {
        expect(reference).toMatch(REFERENCE);
        expect(reference.slice(4)).not.toMatch(/[ILOU]/);
      }
    }
  });

  it("reads what a person types: any case, with or without dashes, spaces or the prefix, and the look-alikes", () => {
    for (const typed of [
      "NRM-79ZH-RAWX",
      "nrm-79zh-rawx",
      "NRM79ZHRAWX",
      "79ZH-RAWX",
      "79zhrawx",
      " nrm 79zh rawx ",
    ]) {
      expect(parseReference(typed), typed).toBe("NRM-79ZH-RAWX");
    }
    expect(parseReference("NRM-O1IL-0000")).toBe("NRM-0111-0000");
    for (const typed of [
      "",
      "NRM-79ZH-RAW",
      "NRM-79ZH-RAWXY",
      "NRM-79ZH-RAWU",
      "XYZ-79ZH-RAWX",
      "asha@example.in",
    ]) {
      expect(parseReference(typed), typed).toBeNull();
    }
  });

  it("finds every lead that has it: more than one makes it ambiguous", () => {
    const leads = [
      { id: "3a7f1c2b-9d00-4e6a-8b1c-0123456789ab" },
      { id: "3a7f1c2b-9d11-4e6a-8b1c-0123456789ab" },
      { id: "3a7f1c2b-9e00-4e6a-8b1c-0123456789ab" },
    ];
    expect(leadsWithReference(leads, "NRM-79ZH-RAWX")).toEqual(leads.slice(0, 2));
    expect(leadsWithReference(leads, leadReference(leads[2]?.id ?? ""))).toEqual([leads[2]]);
    expect(leadsWithReference(leads, "NRM-0000-0000")).toEqual([]);
  });
});
