/**
 * The field-metrics summary as one self-contained HTML page, with a chart per metric (`npm run
 * vitals -- --html`).
 */
import { METRIC_NAMES, type MetricName, rate, THRESHOLDS } from "~/vitals/metrics";
import {
  formatValue,
  histogram,
  type MetricSummary,
  percentile,
  RATING_LABELS,
  type Summary,
  thresholdText,
} from "~/vitals/summary";

const escapeHtml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

const CHART = { width: 640, height: 220, left: 44, right: 12, top: 12, bottom: 40 };

const BAND_COLOURS = { good: "#d7f5e3", "needs-improvement": "#fdefc8", poor: "#fbd9d6" } as const;

/** One metric's distribution: bars over green / amber / red threshold bands and a p75 line. */
function chart(metric: MetricName, values: readonly number[]): string {
  const bins = histogram(metric, values);
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const max = bins.at(-1)?.to ?? 1;
  const x = (value: number) => CHART.left + (Math.min(value, max) / max) * plotWidth;
  const highest = Math.max(1, ...bins.map((bin) => bin.count));
  const y = (count: number) => CHART.top + plotHeight - (count / highest) * plotHeight;
  const [good, poor] = THRESHOLDS[metric];
  const bottom = CHART.top + plotHeight;

  const bands = [
    [0, good, BAND_COLOURS.good],
    [good, poor, BAND_COLOURS["needs-improvement"]],
    [poor, max, BAND_COLOURS.poor],
  ] as const;
  const parts = bands.map(
    ([from, to, colour]) =>
      `<rect x="${x(from).toFixed(1)}" y="${CHART.top}" width="${(x(to) - x(from)).toFixed(1)}" height="${plotHeight}" fill="${colour}"/>`,
  );
  const barWidth = plotWidth / bins.length;
  for (const bin of bins) {
    if (bin.count === 0) continue;
    parts.push(
      `<rect x="${(x(bin.from) + 1).toFixed(1)}" y="${y(bin.count).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${(bottom - y(bin.count)).toFixed(1)}" fill="#4b3bb5"><title>${escapeHtml(`${formatValue(metric, bin.from)} – ${formatValue(metric, bin.to)}${bin === bins.at(-1) ? " and above" : ""}: ${bin.count}`)}</title></rect>`,
    );
  }
  parts.push(
    `<line x1="${CHART.left}" y1="${bottom}" x2="${CHART.width - CHART.right}" y2="${bottom}" stroke="#333"/>`,
  );
  for (const tick of [0, good, poor, max]) {
    parts.push(
      `<text x="${x(tick).toFixed(1)}" y="${bottom + 16}" text-anchor="${tick === max ? "end" : "middle"}">${escapeHtml(formatValue(metric, tick))}${tick === max ? "+" : ""}</text>`,
    );
  }
  parts.push(`<text x="${CHART.left - 6}" y="${CHART.top + 10}" text-anchor="end">${highest}</text>`);
  parts.push(`<text x="${CHART.left - 6}" y="${bottom}" text-anchor="end">0</text>`);
  if (values.length > 0) {
    const p75 = percentile(values, 75);
    parts.push(
      `<line x1="${x(p75).toFixed(1)}" y1="${CHART.top}" x2="${x(p75).toFixed(1)}" y2="${bottom}" stroke="#111" stroke-width="2" stroke-dasharray="4 3"/>`,
      `<text x="${Math.min(x(p75) + 4, CHART.width - CHART.right - 80).toFixed(1)}" y="${CHART.top + 12}">p75 ${escapeHtml(formatValue(metric, p75))}</text>`,
    );
  }
  const label =
    values.length > 0
      ? `${metric}: ${values.length} samples, 75th percentile ${formatValue(metric, percentile(values, 75))} (${RATING_LABELS[rate(metric, percentile(values, 75))]}); ${thresholdText(metric)}`
      : `${metric}: no samples`;
  return `<svg viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1b1f}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left}
.n{text-align:right}
.good{background:#d7f5e3}.needs-improvement{background:#fdefc8}.poor{background:#fbd9d6}
svg{width:100%;height:auto;font-size:11px;font-family:system-ui,sans-serif}
figure{margin:1rem 0}figcaption{font-size:.9rem;color:#444}
`;

/** Rows of route, one grouping column, metric, p75, rating and samples. */
function table(
  column: string,
  groups: readonly { route: string; by: string; metrics: readonly MetricSummary[] }[],
) {
  const rows = groups.flatMap((group) =>
    group.metrics.map(
      (metric) =>
        `<tr><td>${escapeHtml(group.route)}</td><td>${group.by}</td><td>${metric.metric}</td><td class="n">${escapeHtml(formatValue(metric.metric, metric.p75))}</td><td class="${metric.rating}">${RATING_LABELS[metric.rating]}</td><td class="n">${metric.samples}</td></tr>`,
    ),
  );
  return `<table><thead><tr><th scope="col">route</th><th scope="col">${column}</th><th scope="col">metric</th><th scope="col" class="n">p75</th><th scope="col">rating</th><th scope="col" class="n">samples</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The summary as one self-contained HTML page: inline CSS and SVG, no script, nothing fetched. */
export function renderReport(summary: Summary): string {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const byDevice = summary.groups.map((group) => ({ ...group, by: group.device }));
  const byTier = summary.tiers.map((group) => ({ ...group, by: group.tier }));
  const tables =
    byDevice.length > 0
      ? `${table("device", byDevice)}
<h2>Low-end devices and the others</h2>
<p>INP and LCP on low-end devices (at most 4 cores or at most 2 GB of memory) and the others; unknown: the browser reported neither.</p>
${table("devices", byTier)}`
      : "<p>No samples in this period.</p>";
  const charts = METRIC_NAMES.map(
    (metric) =>
      `<figure><h2>${metric}</h2>${chart(metric, summary.values[metric])}<figcaption>${summary.values[metric].length} samples, all routes and devices. Bands: ${escapeHtml(thresholdText(metric))}.</figcaption></figure>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Field metrics ${day(summary.from)} to ${day(summary.to)}</title><style>${STYLE}</style></head>
<body><h1>Field metrics, ${day(summary.from)} to ${day(summary.to)}</h1>
<p>${summary.samples} samples over 28 days. The 75th percentile (nearest rank) per route and device class, rated by Google's thresholds.</p>
${tables}
${charts.join("\n")}
</body></html>
`;
}
