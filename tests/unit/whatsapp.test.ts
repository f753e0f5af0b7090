import { describe, expect, it } from "vitest";
import { site } from "~/content/site";
import { campaignOf, campaignWords, chatHref, WHATSAPP_NUMBER, whatsAppHref } from "~/content/whatsapp";
import { parseTapBeacon } from "~/vitals/schema.server";
import { tapRecordOf } from "~/vitals/store.server";
import { formatTaps, parseRecords, parseTaps, tapsPerCampaign } from "~/vitals/summary";

describe("WhatsApp click-to-chat", () => {
  it("has a fictional Indian mobile in WhatsApp's form: digits only, 91 first, no + and no leading zero", () => {
    expect(site.whatsapp?.number).toMatch(WHATSAPP_NUMBER);
    expect(site.whatsapp?.number).toMatch(/^91[6-9]\d{9}$/);
    // The greeting is the content's (the tests' own here), made safe for the address.
    expect(whatsAppHref()).toBe(
      `https://wa.me/${site.whatsapp?.number}?text=${encodeURIComponent(site.whatsapp?.greeting ?? "")}`,
    );
    expect(whatsAppHref()).not.toMatch(/[ ,]/);
  });

  it("makes no link without a number in that form", () => {
    for (const number of [
      undefined,
      "",
      "+919886041725",
      "0919886041725",
      "91 98860 41725",
      "9198860417251234",
    ]) {
      expect(chatHref(number, "Hello"), String(number)).toBeNull();
    }
  });

  it("names a campaign in at most 40 letters, digits, spaces, - and _", () => {
    expect(campaignOf("?utm_source=google&utm_campaign=spring-launch")).toBe("spring-launch");
    expect(campaignOf("?utm_source=newsletter")).toBe("newsletter");
    expect(campaignOf("?utm_campaign=%20%21%21&utm_source=linkedin")).toBe("linkedin");
    expect(campaignOf("?gclid=abc")).toBeNull();
    expect(campaignWords("Diwali <b>sale</b>!  2026 https://x.example")).toBe(
      "Diwali bsaleb 2026 httpsxexample",
    );
    expect(campaignWords("दिवाली_ऑफ़र")).toBe("दिवाली_ऑफ़र");
    expect(campaignWords("a".repeat(60))).toHaveLength(40);
  });

  it("cuts a campaign at a character, never inside a surrogate pair, so its link can be made", () => {
    const campaign = campaignWords(`${"a".repeat(39)}𝐀𝐁`);
    expect(campaign).toBe(`${"a".repeat(39)}𝐀`);
    expect(() => encodeURIComponent(`${campaign}`)).not.toThrow();
    expect(parseTapBeacon({ tap: "whatsapp", route: "/", device: "mobile", campaign })).not.toBeNull();
    expect(campaignWords("𝐀".repeat(50))).toBe("𝐀".repeat(40));
  });
});

describe("a WhatsApp tap as a field metric", () => {
  const at = new Date("2026-11-27T10:42:00Z");

  it("is a strict beacon: route, device class and the visit's campaign, each tag at most 100 characters", () => {
    const tap = {
      tap: "whatsapp",
      route: "/",
      device: "mobile",
      source: "newsletter",
      medium: "email",
      campaign: "spring-launch",
      click: "gclid",
      host: "mail.example.com",
    };
    expect(parseTapBeacon(tap)).toEqual(tap);
    // A page of an earlier build sends the campaign alone, as its message named it.
    const earlier = { tap: "whatsapp", route: "/", device: "mobile", campaign: "spring-launch" };
    expect(parseTapBeacon(earlier)).toEqual({
      ...earlier,
      source: null,
      medium: null,
      click: null,
      host: null,
    });
    for (const bad of [
      { ...tap, campaign: "a".repeat(101) },
      { ...tap, click: "fbclid=SECRET" },
      { ...tap, route: "/admin" },
      { ...tap, email: "asha@example.in" },
      { name: "LCP", value: 1 },
    ]) {
      expect(parseTapBeacon(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it("keeps, for npm run vitals, the campaign as the chat's message names it", () => {
    const record = tapRecordOf(
      { tap: "whatsapp", route: "/", device: "mobile", campaign: "<b>Diwali!", source: null },
      at,
    );
    expect(record.campaign).toBe("bDiwali");
    expect(
      tapRecordOf({ tap: "whatsapp", route: "/", device: "mobile", campaign: null, source: "newsletter" }, at)
        .campaign,
    ).toBe("newsletter");
  });

  it("is counted per campaign by npm run vitals, and left out of the metrics' summary", () => {
    const lines = [
      tapRecordOf({ tap: "whatsapp", route: "/", device: "mobile", campaign: "spring-launch" }, at),
      tapRecordOf({ tap: "whatsapp", route: "/", device: "desktop", campaign: "spring-launch" }, at),
      tapRecordOf({ tap: "whatsapp", route: "/privacy-policy", device: "mobile", campaign: null }, at),
    ]
      .map((record) => JSON.stringify(record))
      .join("\n");
    expect(parseRecords(lines)).toEqual([]);
    const taps = parseTaps(lines);
    expect(taps[0]).toMatchObject({ at: "2026-11-27T10:00:00.000Z", campaign: "spring-launch" });
    expect(tapsPerCampaign(taps, at)).toEqual([
      { campaign: "spring-launch", taps: 2 },
      { campaign: "(none)", taps: 1 },
    ]);
    expect(tapsPerCampaign(taps, new Date("2027-01-01T00:00:00Z"))).toEqual([]);
    expect(formatTaps(tapsPerCampaign(taps, at))).toContain("spring-launch     2");
  });
});
