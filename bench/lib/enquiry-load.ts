/**
 * Enquiries posted by many clients at once, as the load test and the replica benchmark send
 * them: each a new enquiry (no double submit), each client either waiting for its answer before
 * the next (postEnquiries) or posting at a steady rate (postEnquiriesAtRate).
 */
import { type EnquiryForm, fillEnquiry, parseEnquiryForm } from "./enquiry-form";

export interface LoadResult {
  /** Milliseconds from request to full answer, one per enquiry. */
  latencies: number[];
  statuses: Map<number, number>;
  /** The markers of the enquiries answered 303 (they are in each message). */
  answered: string[];
  seconds: number;
}

/** The enquiry form as `url`'s home page renders it. */
export async function loadForm(url: string): Promise<EnquiryForm> {
  const form = parseEnquiryForm(await (await fetch(`${url}/`)).text(), `${url}/`);
  if (!form) throw new Error(`no enquiry form on ${url}/`);
  return form;
}

/**
 * `clients` clients posting until `total` enquiries are sent or `seconds` have passed, the
 * n-th enquiry to `forms[n % forms.length]` (one form per server: round robin).
 */
export async function postEnquiries(
  forms: EnquiryForm[],
  options: { clients: number; label: string; total?: number; seconds?: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const answered: string[] = [];
  const run = Date.now().toString(36);
  const started = performance.now();
  const endAt = options.seconds === undefined ? Number.POSITIVE_INFINITY : started + options.seconds * 1000;
  const total = options.total ?? Number.POSITIVE_INFINITY;
  let next = 0;
  const post = postOne(forms, run, options.label, { latencies, statuses, answered });
  const client = async () => {
    while (next < total && performance.now() < endAt) await post(next++);
  };
  await Promise.all(Array.from({ length: options.clients }, client));
  return { latencies, statuses, answered, seconds: (performance.now() - started) / 1000 };
}

/**
 * An open loop: `clients` clients each posting one enquiry every `intervalMs` for `seconds`
 * (the clients' starts spread over one interval), whether or not their previous answer came.
 * The offered rate stays `clients / intervalMs` however slow the server is, so the latencies
 * are those of a visitor arriving at that rate, not of a queue the clients themselves keep full.
 */
export async function postEnquiriesAtRate(
  forms: EnquiryForm[],
  options: { clients: number; intervalMs: number; seconds: number; label: string },
): Promise<LoadResult> {
  const result: Omit<LoadResult, "seconds"> = { latencies: [], statuses: new Map(), answered: [] };
  const post = postOne(forms, Date.now().toString(36), options.label, result);
  const started = performance.now();
  const perClient = Math.max(1, Math.floor((options.seconds * 1000) / options.intervalMs));
  const sends: Promise<void>[] = [];
  for (let round = 0; round < perClient; round += 1) {
    for (let client = 0; client < options.clients; client += 1) {
      const at = started + round * options.intervalMs + (client * options.intervalMs) / options.clients;
      const wait = at - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sends.push(post(round * options.clients + client));
    }
  }
  await Promise.all(sends);
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

/** Posts the `index`-th enquiry (to `forms[index % forms.length]`) and records its answer in `into`. */
function postOne(forms: EnquiryForm[], run: string, label: string, into: Omit<LoadResult, "seconds">) {
  return async (index: number) => {
    const form = forms[index % forms.length] as EnquiryForm;
    const marker = `${run}-${label}-${index}`;
    const sent = performance.now();
    let status = 0;
    try {
      const answer = await fetch(form.action, {
        method: "POST",
        body: fillEnquiry(form, marker),
        redirect: "manual",
        signal: AbortSignal.timeout(30_000),
      });
      await answer.arrayBuffer();
      status = answer.status;
    } catch {
      // status 0: no answer
    }
    into.latencies.push(performance.now() - sent);
    into.statuses.set(status, (into.statuses.get(status) ?? 0) + 1);
    if (status === 303) into.answered.push(marker);
  };
}

/** The p-th percentile (nearest rank) of `values`, with one decimal. */
export function percentile(values: number[], p: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  ).toFixed(1);
}

/** `303×500 429×2`: how many answers had each status. */
export function statusSummary(statuses: Map<number, number>): string {
  return [...statuses].map(([status, times]) => `${status}×${times}`).join(" ");
}
