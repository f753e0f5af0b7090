/**
 * The campaign report as one self-contained HTML page (`npm run report -- --html FILE`): a chart
 * of daily visits and enquiries per campaign, drawn here as SVG, and the report's tables. No
 * script, nothing fetched; readable on a phone.
 */
import {
  type CampaignLine,
  campaignLabel,
  change,
  type FullReport,
  type PageLine,
  pageLabel,
  percent,
} from "~/campaigns/report";

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

const escapeHtml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The campaigns charted at most (the most enquiries first); the table lists them all. */
const CHARTED = 8;
const CHART = { width: 400, height: 150, left: 30, right: 8, top: 10, bottom: 26 };
/** Dark enough on white for text and lines (WCAG 3:1 for graphics), told apart by dash as well as colour. */
const VISITS = "#3a3aa8";
const ENQUIRIES = "#a3340d";

/** One campaign's days: visits as a solid line, enquiries as a dashed one, over the same scale. */
function chart(series: FullReport["daily"][number]): string {
  const { days } = series;
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const highest = Math.max(1, ...days.map((day) => Math.max(day.visits, day.enquiries)));
  const step = days.length > 1 ? plotWidth / (days.length - 1) : 0;
  const x = (index: number) => (CHART.left + index * step).toFixed(1);
  const y = (count: number) => (CHART.top + plotHeight - (count / highest) * plotHeight).toFixed(1);
  const bottom = CHART.top + plotHeight;
  const line = (key: "visits" | "enquiries", colour: string, dash: string) =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${days.map((day, index) => `${x(index)},${y(day[key])}`).join(" ")}"/>`;
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  const visits = days.reduce((sum, day) => sum + day.visits, 0);
  const enquiries = days.reduce((sum, day) => sum + day.enquiries, 0);
  const name = campaignLabel(series.campaign);
  const label = `${name}: daily visits (solid line) and enquiries (dashed line) from ${first} to ${last}; ${plural(visits, "visit")} and ${plural(enquiries, "enquiry", "enquiries")} in all, at most ${highest} in one day`;
  return `<svg viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">
<line x1="${CHART.left}" y1="${bottom}" x2="${CHART.width - CHART.right}" y2="${bottom}" stroke="#333"/>
<text x="${CHART.left - 6}" y="${CHART.top + 10}" text-anchor="end">${highest}</text>
<text x="${CHART.left - 6}" y="${bottom}" text-anchor="end">0</text>
<text x="${CHART.left}" y="${bottom + 18}">${escapeHtml(first)}</text>
<text x="${CHART.width - CHART.right}" y="${bottom + 18}" text-anchor="end">${escapeHtml(last)}</text>
${line("visits", VISITS, "")}
${line("enquiries", ENQUIRIES, ' stroke-dasharray="6 4"')}
</svg>`;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:1.5rem auto;max-width:60rem;padding:0 1rem;color:#1b1b1f}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem;margin:1.5rem 0 .25rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
.n{text-align:right;white-space:nowrap}
svg{width:100%;max-width:40rem;height:auto;font-size:11px;font-family:system-ui,sans-serif}
figure{margin:0 0 1.5rem}caption{text-align:left;font-weight:600;padding:.35rem .5rem}
.key span{display:inline-block;margin-right:1rem}.key i{display:inline-block;width:2rem;border-top:3px solid;vertical-align:middle;margin-right:.35rem}
`;

function campaignTable(report: FullReport): string {
  const before = new Map(report.previous.campaigns.map((line) => [campaignLabel(line), line]));
  const rows = report.campaigns.map((line: CampaignLine) => {
    const earlier = before.get(campaignLabel(line));
    return `<tr><th scope="row">${escapeHtml(campaignLabel(line))}</th><td class="n">${line.visits}</td><td class="n">${line.enquiries}</td><td class="n">${percent(line.rate)}</td><td class="n">${line.whatsappTaps}</td><td class="n">${change(line.visits, earlier?.visits)} / ${change(line.enquiries, earlier?.enquiries)}</td></tr>`;
  });
  return `<div class="scroll" tabindex="0" role="region" aria-label="Campaigns"><table><caption>Per campaign (source / medium / campaign)</caption><thead><tr><th scope="col">campaign</th><th scope="col" class="n">visits</th><th scope="col" class="n">enquiries</th><th scope="col" class="n">rate</th><th scope="col" class="n">WhatsApp taps</th><th scope="col" class="n">change (visits / enquiries)</th></tr></thead><tbody>${rows.join("") || '<tr><td colspan="6">No visits or enquiries in this period.</td></tr>'}</tbody></table></div>`;
}

function pageTable(report: FullReport): string {
  const before = new Map(report.previous.pages.map((line) => [pageLabel(line), line]));
  const rows = report.pages.map((line: PageLine) => {
    const earlier = before.get(pageLabel(line));
    return `<tr><th scope="row">${escapeHtml(pageLabel(line))}</th><td class="n">${line.visits}</td><td class="n">${line.enquiries}</td><td class="n">${percent(line.rate)}</td><td class="n">${change(line.visits, earlier?.visits)} / ${change(line.enquiries, earlier?.enquiries)}</td></tr>`;
  });
  return `<div class="scroll" tabindex="0" role="region" aria-label="Landing pages"><table><caption>Per landing page</caption><thead><tr><th scope="col">landing page</th><th scope="col" class="n">visits</th><th scope="col" class="n">enquiries</th><th scope="col" class="n">rate</th><th scope="col" class="n">change (visits / enquiries)</th></tr></thead><tbody>${rows.join("") || '<tr><td colspan="5">No visits or enquiries in this period.</td></tr>'}</tbody></table></div>`;
}

/** The report as one page: totals, a chart per campaign (the first CHARTED), then the tables. */
export function renderCampaignReport(report: FullReport): string {
  const visits = report.campaigns.reduce((sum, line) => sum + line.visits, 0);
  const enquiries = report.campaigns.reduce((sum, line) => sum + line.enquiries, 0);
  const rate = visits === 0 ? null : enquiries / visits;
  const charts = report.daily
    .slice(0, CHARTED)
    .map(
      (series) =>
        `<figure><figcaption><h3>${escapeHtml(campaignLabel(series.campaign))}</h3></figcaption>${chart(series)}</figure>`,
    );
  const period = `${report.since} to ${report.until}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Campaigns, ${escapeHtml(period)}</title><style>${STYLE}</style></head>
<body><main><h1>Campaigns, ${escapeHtml(period)}</h1>
<p>${plural(visits, "visit")}, ${plural(enquiries, "enquiry", "enquiries")}, a rate of ${percent(rate === null ? null : Math.round(rate * 10_000) / 10_000)}. Compared with ${escapeHtml(`${report.previous.since} to ${report.previous.until}`)}. Not counted: ${plural(report.spam, "quarantined enquiry", "quarantined enquiries")}, and ${plural(report.droppedVisits, "landing report")} over their limit.</p>
<p>Visits are counted by the page's own script when a visit lands from another site or from none: a visit without JavaScript, or with Global Privacy Control or Do Not Track, is not counted. Enquiries always are.</p>
<h2>Daily visits and enquiries per campaign</h2>
<p class="key"><span><i style="border-color:${VISITS}"></i>visits</span><span><i style="border-color:${ENQUIRIES};border-top-style:dashed"></i>enquiries</span></p>
${charts.join("\n") || "<p>No visits or enquiries in this period.</p>"}
<h2>Campaigns</h2>
${campaignTable(report)}
<h2>Landing pages</h2>
${pageTable(report)}
</main></body></html>
`;
}
