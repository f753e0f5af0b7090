import type { TestInfo } from "@playwright/test";
import { HONEYPOT_FIELD } from "../../app/enquiry/trap-fields";
import { NOTICE, validEnquiry } from "./enquiry-page";
import type { FakeEmailJs } from "./fake-emailjs";
import { requestsFor } from "./lead-fixtures";

// What fault tests watch while they break things: pages, a stream of enquiries, and what
// reached the fake EmailJS.

export interface PageWatch {
  stop(): Promise<{ requests: number; slowestMs: number; slowestAt: number; failures: string[] }>;
}

/**
 * Asks for the home page every 200 ms until stopped, as visitors get it (the shared document,
 * answered from memory: it measures whether anything holds the server up, not how fast this
 * machine renders); the slowest answer is the figure. `target` names another request target
 * per request, e.g. a query that makes each one a full render.
 */
export function watchPages(url: string, target: (request: number) => string = () => "/"): PageWatch {
  let running = true;
  let slowestMs = 0;
  let slowestAt = 0;
  let requests = 0;
  const failures: string[] = [];
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}${target(requests)}`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`GET / answered ${response.status}`);
      } catch (error) {
        failures.push(String(error));
      }
      const ms = performance.now() - started;
      if (ms > slowestMs) {
        slowestMs = ms;
        slowestAt = Date.now();
      }
      requests += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { requests, slowestMs: Math.round(slowestMs), slowestAt, failures };
    },
  };
}

export interface EnquiryOutcome {
  name: string;
  message: string;
  status: number;
  /** When the answer came, ms since the epoch. */
  at: number;
  ms: number;
  kind: "sent" | "failure notice" | "other";
  /** Whether a failure notice came back with every field the sender typed. */
  fieldsKept: boolean;
  retryAfter: string | undefined;
}

/** Posts one valid enquiry (as a no-JS browser, urlencoded) and classifies the answer. */
export async function postOne(
  url: string,
  name: string,
  post: (body: URLSearchParams) => Promise<{ status: number; text: string; retryAfter?: string }> = async (
    body,
  ) => {
    const response = await fetch(`${url}/?index`, { method: "POST", body, redirect: "manual" });
    return {
      status: response.status,
      text: await response.text(),
      retryAfter: response.headers.get("retry-after") ?? undefined,
    };
  },
): Promise<EnquiryOutcome> {
  const values = validEnquiry({ name, message: `Enquiry from ${name}: a booking app for our clinics.` });
  const started = performance.now();
  const answer = await post(new URLSearchParams({ [HONEYPOT_FIELD]: "", ...values }));
  const notice = answer.text.includes(NOTICE.failed);
  // The failure answer carries the sender's words back (the form data Remix sends the page).
  const fieldsKept = [values.name, values.email, values.phoneNumber].every((value) =>
    answer.text.includes(value),
  );
  return {
    name,
    message: values.message,
    status: answer.status,
    at: Date.now(),
    ms: Math.round(performance.now() - started),
    kind: answer.status === 303 ? "sent" : notice ? "failure notice" : "other",
    fieldsKept,
    retryAfter: answer.retryAfter,
  };
}

/**
 * Enquiries (each from a new sender) until stopped: one after another with `pauseMs` between them,
 * or with `overlap` one every `pauseMs` whether or not the ones before have their answers yet (as
 * visitors come; one that gets no answer at all, its connection cut, is an `other` of status 0).
 */
export function enquiryStream(
  url: string,
  label: string,
  pauseMs = 100,
  options: { overlap?: boolean } = {},
) {
  let running = true;
  const outcomes: EnquiryOutcome[] = [];
  const inFlight = new Set<Promise<void>>();
  let started = 0;
  const one = async (name: string) => {
    const begun = performance.now();
    outcomes.push(
      await postOne(url, name).catch(
        (): EnquiryOutcome => ({
          name,
          message: "",
          status: 0,
          at: Date.now(),
          ms: Math.round(performance.now() - begun),
          kind: "other",
          fieldsKept: false,
          retryAfter: undefined,
        }),
      ),
    );
  };
  const loop = (async () => {
    for (let index = 0; running; index += 1) {
      const name = `${label} ${index} ${Date.now().toString(36)}`;
      started += 1;
      if (options.overlap) {
        const posting = one(name);
        inFlight.add(posting);
        void posting.finally(() => inFlight.delete(posting));
      } else outcomes.push(await postOne(url, name));
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  return {
    outcomes,
    /** How many enquiries were sent so far (answered or not). */
    started: () => started,
    since: (time: number) => outcomes.filter((outcome) => outcome.at >= time),
    async stop() {
      running = false;
      await loop;
      await Promise.all(inFlight);
      return outcomes;
    },
  };
}

/** How often each name reached the fake. */
export function sendsPerName(fake: FakeEmailJs, names: string[]): number[] {
  return names.map((name) => requestsFor(fake, name).length);
}

/** Logs a figure the lead quotes, and keeps it in the report's annotations. */
export function figures(testInfo: TestInfo, prefix: string, line: string) {
  testInfo.annotations.push({ type: "figures", description: line });
  console.log(`${prefix}: ${line}`);
}
