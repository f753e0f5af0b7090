// Enquiries posted by many clients at once, as the load test and the replica benchmark send
// them: each a new enquiry (no double submit), each client waiting for its answer before the next.
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
  const client = async () => {
    while (next < total && performance.now() < endAt) {
      const index = next++;
      const form = forms[index % forms.length] as EnquiryForm;
      const marker = `${run}-${options.label}-${index}`;
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
      latencies.push(performance.now() - sent);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 303) answered.push(marker);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, client));
  return { latencies, statuses, answered, seconds: (performance.now() - started) / 1000 };
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
