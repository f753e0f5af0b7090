import { describe, expect, it } from "vitest";
import type { VitalsRecord } from "~/vitals/metrics";
import { renderReport } from "~/vitals/report-html";
import { formatSummary, histogram, parseRecords, percentile, summarise } from "~/vitals/summary";

describe("percentile (nearest rank)", () => {
  const sample = [15, 20, 35, 40, 50];

  it("is the ⌈p/100 × n⌉-th smallest value", () => {
    expect(percentile(sample, 75)).toBe(40); // ⌈3.75⌉ = 4th
    expect(percentile(sample, 40)).toBe(20); // ⌈2⌉ = 2nd
    expect(percentile(sample, 100)).toBe(50);
    expect(percentile(sample, 0)).toBe(15);
  });

  it("does not depend on the order of the sample", () => {
    expect(percentile([50, 15, 40, 20, 35], 75)).toBe(40);
  });

  it("takes the value at the rank, not an interpolation", () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(ten, 75)).toBe(8); // ⌈7.5⌉ = 8th
    expect(percentile([7], 75)).toBe(7);
    expect(percentile([], 75)).toBeNaN();
  });
});

const now = new Date("2025-06-29T12:00:00Z");
const record = (overrides: Partial<VitalsRecord>): VitalsRecord => ({
  at: "2025-06-20T10:00:00.000Z",
  route: "/",
  device: "mobile",
  nav: "navigate",
  cores: 8,
  memoryGb: 8,
  metric: "LCP",
  value: 1000,
  rating: "good",
  ...overrides,
});

describe("summarise", () => {
  const lcpMobile = [1200, 1800, 2400, 2600, 5000, 1500, 2100, 3900].map((value) => record({ value }));
  const records = [
    ...lcpMobile,
    record({ metric: "CLS", value: 0.3 }),
    record({ metric: "CLS", value: 0.01 }),
    record({ device: "desktop", metric: "INP", value: 120 }),
    record({ route: "404", device: "desktop", metric: "TTFB", value: 900 }),
    // Older than 28 days, and in the future: both outside the window.
    record({ at: "2025-05-31T11:00:00.000Z", value: 60_000 }),
    record({ at: "2025-06-30T00:00:00.000Z", value: 60_000 }),
  ];
  const summary = summarise(records, now);

  it("takes the 75th percentile per route, device and metric over the last 28 days, with its rating", () => {
    expect(summary.samples).toBe(12);
    expect(summary.groups.map((group) => `${group.route} ${group.device}`)).toEqual([
      "/ mobile",
      "/ desktop",
      "404 desktop",
    ]);
    // Sorted: 1200 1500 1800 2100 2400 2600 3900 5000; ⌈0.75 × 8⌉ = 6th = 2600.
    expect(summary.groups[0]?.metrics).toEqual([
      { metric: "LCP", p75: 2600, rating: "needs-improvement", samples: 8 },
      { metric: "CLS", p75: 0.3, rating: "poor", samples: 2 },
    ]);
    expect(summary.groups[1]?.metrics).toEqual([{ metric: "INP", p75: 120, rating: "good", samples: 1 }]);
    expect(summary.groups[2]?.metrics).toEqual([
      { metric: "TTFB", p75: 900, rating: "needs-improvement", samples: 1 },
    ]);
  });

  it("rates at Google's thresholds: up to the first is good, above the second is poor", () => {
    const at = (metric: VitalsRecord["metric"], value: number) =>
      summarise([record({ metric, value })], now).groups[0]?.metrics[0]?.rating;
    expect(at("LCP", 2500)).toBe("good");
    expect(at("LCP", 2501)).toBe("needs-improvement");
    expect(at("LCP", 4000)).toBe("needs-improvement");
    expect(at("LCP", 4001)).toBe("poor");
    expect(at("INP", 200)).toBe("good");
    expect(at("INP", 501)).toBe("poor");
    expect(at("CLS", 0.1)).toBe("good");
    expect(at("CLS", 0.25)).toBe("needs-improvement");
    expect(at("FCP", 1801)).toBe("needs-improvement");
    expect(at("TTFB", 1801)).toBe("poor");
  });

  it("prints a table the operator can read", () => {
    const text = formatSummary(summary);
    expect(text).toContain("Field metrics from 2025-06-01 to 2025-06-29 (28 days): 12 samples.");
    expect(text).toMatch(/^\/\s+mobile\s+LCP\s+2600 ms\s+needs improvement\s+8$/m);
    expect(text).toMatch(/^\/\s+mobile\s+CLS\s+0\.300\s+poor\s+2$/m);
    expect(text).toMatch(/^404\s+desktop\s+TTFB\s+900 ms\s+needs improvement\s+1$/m);
    expect(text).toContain("LCP: good ≤ 2500 ms, poor > 4000 ms");
    expect(formatSummary(summarise([], now))).toContain("No samples in this period.");
  });
});

describe("low-end devices and the others", () => {
  const lowEnd = { cores: 8, memoryGb: 2 } as const;
  const records = [
    ...[300, 120, 250, 180].map((value) => record({ ...lowEnd, metric: "INP", value })),
    ...[4100, 2000].map((value) => record({ ...lowEnd, value })),
    ...[90, 60].map((value) => record({ metric: "INP", value })),
    record({ value: 1200 }),
    record({ cores: null, memoryGb: null, metric: "INP", value: 500 }),
    record({ ...lowEnd, metric: "CLS", value: 0.5 }),
  ];
  const summary = summarise(records, now);

  it("takes the p75 of INP and LCP per route for low-end, other and unknown devices", () => {
    expect(summary.tiers.map((group) => `${group.route} ${group.tier}`)).toEqual([
      "/ low-end",
      "/ other",
      "/ unknown",
    ]);
    expect(summary.tiers[0]?.metrics).toEqual([
      { metric: "INP", p75: 250, rating: "needs-improvement", samples: 4 },
      { metric: "LCP", p75: 4100, rating: "poor", samples: 2 },
    ]);
    const text = formatSummary(summary);
    expect(text).toMatch(/^\/\s+low-end\s+INP\s+250 ms\s+needs improvement\s+4$/m);
    expect(text).toMatch(/^\/\s+other\s+INP\s+90 ms\s+good\s+2$/m);
    expect(text).toMatch(/^\/\s+unknown\s+INP\s+500 ms\s+needs improvement\s+1$/m);
    expect(text).not.toMatch(/^\/\s+low-end\s+CLS/m);
  });

  it("shows them in the HTML report too", () => {
    expect(renderReport(summary)).toContain(
      '<td>/</td><td>low-end</td><td>INP</td><td class="n">250 ms</td>',
    );
  });
});

describe("parseRecords", () => {
  it("reads lines stored before cores and memory were recorded, with both null", () => {
    const { cores: _cores, memoryGb: _memoryGb, ...earlier } = record({});
    expect(parseRecords(JSON.stringify(earlier))).toEqual([{ ...earlier, cores: null, memoryGb: null }]);
  });

  it("skips lines whose cores or memory are no bucket", () => {
    expect(parseRecords(JSON.stringify({ ...record({}), cores: 6 }))).toEqual([]);
    expect(parseRecords(JSON.stringify({ ...record({}), memoryGb: "4" }))).toEqual([]);
  });

  it("keeps well-formed lines and skips torn or foreign ones", () => {
    const good = JSON.stringify(record({}));
    const text = [
      good,
      '{"at":"2025-06-20T10:00:00.000Z","route":"/admin"',
      "not json",
      good,
      '{"at":"x',
    ].join("\n");
    expect(parseRecords(text)).toHaveLength(2);
    expect(parseRecords(JSON.stringify(record({ metric: "FID" as "LCP" })))).toEqual([]);
  });
});

describe("histogram", () => {
  it("counts into 20 bins up to twice the poor threshold, the last one open-ended", () => {
    const bins = histogram("LCP", [0, 399, 400, 2500, 7999, 8000, 120_000]);
    expect(bins).toHaveLength(20);
    expect(bins[0]).toEqual({ from: 0, to: 400, count: 2 });
    expect(bins[1]?.count).toBe(1);
    expect(bins[6]?.count).toBe(1);
    expect(bins[19]?.count).toBe(3);
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(7);
  });
});

describe("the HTML report", () => {
  const html = renderReport(summarise([record({}), record({ metric: "CLS", value: 0.02 })], now));

  it("draws one chart per metric as inline SVG, with the p75 marked", () => {
    expect(html.match(/<svg /g)).toHaveLength(5);
    expect(html).toContain(
      'aria-label="LCP: 1 samples, 75th percentile 1000 ms (good); good ≤ 2500 ms, poor &#62; 4000 ms"',
    );
    expect(html).toContain("p75 1000 ms");
    expect(html).toContain("INP: no samples");
  });

  it("is self-contained: no script and nothing fetched", () => {
    expect(html).not.toMatch(/<script|<link|src=|href=|@import|url\(/i);
    expect(html).toContain("<style>");
  });
});
