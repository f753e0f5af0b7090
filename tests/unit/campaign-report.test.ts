import { describe, expect, it } from "vitest";
import { addDays, type CountRow, dayIn, daysBetween, emptyRow, isDay, rowsOf } from "~/campaigns/counts";
import { cleanCampaign, leadEvent } from "~/campaigns/events.server";
import { fullReport, periodBefore, reportCsv, reportJson, reportText, summarise } from "~/campaigns/report";
import { renderCampaignReport } from "~/campaigns/report-html";
import { dueSummary, summaryText } from "~/campaigns/weekly-summary.server";
import { type CampaignFields, campaignFieldsOf } from "~/lead-parts/campaign-fields";
import { newLead } from "~/leads/lead";

const NEWSLETTER: CampaignFields = {
  source: "newsletter",
  medium: "email",
  campaign: "october",
  click: null,
  host: null,
};
const NONE: CampaignFields = { source: null, medium: null, campaign: null, click: null, host: null };

const row = (
  day: string,
  route: string | null,
  fields: CampaignFields,
  counts: Partial<CountRow>,
): CountRow => ({
  ...emptyRow({ day, route, ...fields }),
  ...counts,
});

describe("the campaign counts' days", () => {
  it("counts a moment on its day in the report's time zone", () => {
    // 20:00 UTC on 6 December is 01:30 on 7 December in India.
    expect(dayIn(new Date("2026-12-06T20:00:00Z"), "Asia/Kolkata")).toBe("2026-12-07");
    expect(dayIn(new Date("2026-12-06T20:00:00Z"), "Europe/London")).toBe("2026-12-06");
  });

  it("turns the day at midnight to the second, each time zone apart, though it formats once a minute", () => {
    // Midnight in India is 18:30 UTC; the last second before it, then the first after, then back.
    const moments = [
      "2026-12-06T18:29:00Z",
      "2026-12-06T18:29:59Z",
      "2026-12-06T18:30:00Z",
      "2026-12-06T18:29:30Z",
    ];
    expect(moments.map((at) => dayIn(new Date(at), "Asia/Kolkata"))).toEqual([
      "2026-12-06",
      "2026-12-06",
      "2026-12-07",
      "2026-12-06",
    ]);
    expect(moments.map((at) => dayIn(new Date(at), "UTC"))).toEqual(Array(4).fill("2026-12-06"));
  });

  it("moves across months and leap days, and knows a real day", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(daysBetween("2026-12-30", "2027-01-02")).toEqual([
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
    ]);
    expect(isDay("2026-02-29")).toBe(false);
    expect(isDay("2028-02-29")).toBe(true);
    expect(isDay("2026-13-01")).toBe(false);
  });

  it("the period before is as long and ends the day before", () => {
    expect(periodBefore("2026-11-10", "2026-12-07")).toEqual({ since: "2026-10-13", until: "2026-11-09" });
  });
});

describe("what the browser and the server read of a campaign", () => {
  it("reads the landing's tags, the click's kind (never its value) and another site's host", () => {
    expect(
      campaignFieldsOf(
        "https://site.in/?utm_source=google&utm_medium=cpc&utm_campaign=diwali&gclid=SECRET",
        "https://www.google.com/",
      ),
    ).toEqual({
      source: "google",
      medium: "cpc",
      campaign: "diwali",
      click: "gclid",
      host: "www.google.com",
    });
    expect(campaignFieldsOf("https://site.in/insights", "https://site.in/")).toEqual(NONE);
    expect(campaignFieldsOf("https://site.in/?utm_source=", "")).toEqual(NONE);
  });

  it("keeps a tag to 100 characters whole, drops control characters, and refuses what is no host or click", () => {
    const long = `${"a".repeat(99)}𝐀b`;
    expect(campaignFieldsOf(`https://site.in/?utm_source=${encodeURIComponent(long)}`, "").source).toBe(
      `${"a".repeat(99)}𝐀`,
    );
    expect(
      cleanCampaign({ source: "news\u0000letter\u202e", medium: "  ", click: "utm_x", host: "evil example" }),
    ).toEqual({ source: "newsletter", medium: null, campaign: null, click: null, host: null });
    expect(cleanCampaign({ host: "Mail.Google.COM", click: "fbclid" })).toMatchObject({
      host: "mail.google.com",
      click: "fbclid",
    });
  });

  it("counts a lead on its landing page, from its source, on the day it was received; a quarantined one apart", () => {
    const lead = newLead({
      id: "00000000-0000-4000-8000-000000000001",
      enquiry: {
        name: "Asha",
        email: "a@example.in",
        countryCode: "91",
        phoneNumber: "9876543210",
        message: "Hello",
      },
      destinations: ["emailjs"],
      at: new Date("2026-12-06T20:00:00Z"),
      source: {
        landing: "/insights/estimates-as-ranges",
        referrer: "https://www.linkedin.com",
        parameters: { utm_source: "linkedin", utm_campaign: "q4", li_fat_id: "x" },
      },
    });
    expect(leadEvent(lead, "Asia/Kolkata")).toEqual({
      day: "2026-12-07",
      route: "/insights/:slug",
      source: "linkedin",
      medium: null,
      campaign: "q4",
      click: "li_fat_id",
      host: "www.linkedin.com",
      counter: "enquiries",
    });
    const caught = newLead({
      ...lead,
      id: lead.id,
      destinations: [],
      at: new Date(lead.receivedAt),
      reason: "honeypot",
      enquiry: lead.enquiry,
    });
    expect(leadEvent({ ...caught, source: undefined }, "Asia/Kolkata")).toMatchObject({
      route: null,
      counter: "spam",
      ...NONE,
    });
  });
});

describe("the report", () => {
  const rows = [
    row("2026-12-01", "/", NEWSLETTER, { visits: 400, enquiries: 8, whatsappTaps: 10 }),
    row(
      "2026-12-02",
      "/insights/:slug",
      { ...NEWSLETTER, host: "mail.google.com" },
      { visits: 20, enquiries: 1, whatsappTaps: 4 },
    ),
    row("2026-12-02", "/", NONE, { visits: 50 }),
    row("2026-12-03", null, NONE, { enquiries: 2, spam: 3 }),
    row("2026-12-03", null, NONE, { droppedVisits: 7 }),
    row("2026-11-20", "/", NEWSLETTER, { visits: 300, enquiries: 6 }),
  ];

  it("sums each campaign and landing page, with the rate of enquiries to visits (null without visits)", () => {
    const report = summarise(rows, "2026-12-01", "2026-12-07");
    expect(report.campaigns).toEqual([
      {
        source: "newsletter",
        medium: "email",
        campaign: "october",
        visits: 420,
        enquiries: 9,
        rate: 0.0214,
        whatsappTaps: 14,
      },
      { source: null, medium: null, campaign: null, visits: 50, enquiries: 2, rate: 0.04, whatsappTaps: 0 },
    ]);
    expect(report.pages).toEqual([
      { route: "/", visits: 450, enquiries: 8, rate: 0.0178 },
      { route: null, visits: 0, enquiries: 2, rate: null },
      { route: "/insights/:slug", visits: 20, enquiries: 1, rate: 0.05 },
    ]);
    expect(Object.keys(JSON.parse(reportJson(report)))).toEqual(["since", "until", "campaigns", "pages"]);
  });

  it("tells the quarantine, the dropped landings and the change from the period before", () => {
    const report = fullReport(rows, "2026-11-24", "2026-12-07");
    expect(report.spam).toBe(3);
    expect(report.droppedVisits).toBe(7);
    expect(report.previous.campaigns[0]).toMatchObject({ source: "newsletter", visits: 300, enquiries: 6 });
    const text = reportText(report);
    expect(text).toContain("newsletter / email / october");
    expect(text).toMatch(/420 +9 +2\.1 % +14 +\+120 \/ \+3/);
    expect(text).toContain("Quarantined enquiries (not counted above): 3");
    expect(text).toContain("Landing reports over their limit (not counted as visits): 7");
    expect(report.daily[0]?.days).toHaveLength(14);
  });

  it("writes a CSV a spreadsheet reads as written", () => {
    const report = summarise(
      [row("2026-12-01", "/", { ...NONE, source: "=HYPERLINK(1)", campaign: "0012" }, { visits: 1 })],
      "2026-12-01",
      "2026-12-01",
    );
    const csv = reportCsv(report).trim().split("\n");
    expect(csv[0]).toBe("kind,source,medium,campaign,route,visits,enquiries,rate,whatsappTaps");
    expect(csv[1]).toBe("campaign,'=HYPERLINK(1),,'0012,,1,0,0,0");
    expect(csv[2]).toBe("page,,,,/,1,0,0,");
  });

  it("draws a chart per campaign as SVG in a page with no script", () => {
    const html = renderCampaignReport(fullReport(rows, "2026-12-01", "2026-12-07"));
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<svg [^>]*role="img"/g)).toHaveLength(2);
    expect(html).toContain(
      'aria-label="newsletter / email / october: daily visits (solid line) and enquiries (dashed line) from 2026-12-01 to 2026-12-07; 420 visits and 9 enquiries in all',
    );
  });
});

describe("the weekly summary", () => {
  const monday9 = { day: 1, hour: 9, minute: 0 };

  it("is due from its time for a day, for the seven days before", () => {
    // Monday 7 December 2026, 09:05 in India.
    expect(dueSummary(new Date("2026-12-07T03:35:00Z"), monday9, "Asia/Kolkata")).toEqual({
      week: "2026-12-07",
      since: "2026-11-30",
      until: "2026-12-06",
    });
    // 08:55: last week's, a week old: skipped.
    expect(dueSummary(new Date("2026-12-07T03:25:00Z"), monday9, "Asia/Kolkata")).toBeNull();
    // Tuesday 08:59: still Monday's.
    expect(dueSummary(new Date("2026-12-08T03:29:00Z"), monday9, "Asia/Kolkata")?.week).toBe("2026-12-07");
    expect(dueSummary(new Date("2026-12-08T03:31:00Z"), monday9, "Asia/Kolkata")).toBeNull();
  });

  it("names the week's totals and the top campaigns", () => {
    const text = summaryText(summarise(rows2(), "2026-11-30", "2026-12-06"));
    expect(text.split("\n")[0]).toBe(
      "Campaigns, 2026-11-30 to 2026-12-06: 470 visits, 10 enquiries (2.1 %).",
    );
    expect(text).toContain(
      "1. newsletter / email / october: 420 visits, 9 enquiries (2.1 %), 14 WhatsApp taps",
    );
  });
});

function rows2(): CountRow[] {
  return rowsOf([]).concat([
    row("2026-12-01", "/", NEWSLETTER, { visits: 420, enquiries: 9, whatsappTaps: 14 }),
    row("2026-12-02", "/", NONE, { visits: 50, enquiries: 1 }),
  ]);
}
