/**
 * What tests and benchmarks need around leads: lead files read and written as the store does,
 * copied into a database, enquiries posted, `npm run leads` run, and EmailJS requests counted per lead.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { createDatabase } from "../../app/db/database.server";
import { readMigrations } from "../../app/db/migrations.server";
import { HONEYPOT_FIELD } from "../../app/enquiry/trap-fields";
import type { Enquiry } from "../../app/lead-parts/enquiry";
import type { LeadSource } from "../../app/lead-parts/source";
import {
  type Lead,
  type LeadDestinations,
  leadFileName,
  leadFileText,
  leadStateOf,
  newLead,
  type OwnFields,
  ownFieldsOf,
} from "../../app/leads/lead";
import { importLeadFolder } from "../../app/leads/postgres/import.server";
import type { FakeEmailJs } from "./fake-emailjs";

/**
 * A lead file as it is on disk: EmailJS's record in its own fields (`state` is EmailJS's, or
 * `inbox`/`spam`), and its destinations, absent from a file a release before them wrote.
 */
export type LeadFile = Omit<Lead, "state" | "destinations"> & OwnFields & { destinations?: LeadDestinations };

/**
 * Every lead under ENQUIRY_STORE_DIR, oldest first (none when the folder is missing), read the
 * way the store reads them: regular files whose name is their lead's own (`<ms>-<id>.json`);
 * copies, directories, FIFOs and damaged files are not leads.
 */
export function readLeads(storeDir: string): LeadFile[] {
  const folder = join(storeDir, "leads");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json") && lstatSync(join(folder, name)).isFile())
    .sort()
    .flatMap((name) => {
      try {
        const lead = JSON.parse(readFileSync(join(folder, name), "utf8")) as LeadFile;
        return name === leadFileName(lead) ? [lead] : [];
      } catch {
        return [];
      }
    });
}

export function leadNamed(storeDir: string, name: string): LeadFile | undefined {
  return readLeads(storeDir).find((lead) => lead.enquiry.name === name);
}

/** The requests the fake received for the enquiry from `name` (template_params.name). */
export function requestsFor(fake: FakeEmailJs, name: string) {
  return fake.requests.filter(
    (request) => (request.body as { template_params?: { name?: string } }).template_params?.name === name,
  );
}

/** Runs the built `npm run leads -- ...args` (build/leads.js, as in the image) against `storeDir`. */
export async function runLeadsCli(storeDir: string, args: string[] = []): Promise<string> {
  return (await leadsCli(storeDir, args)).stdout;
}

/**
 * The same, with its log (stderr) and extra environment (the EmailJS ids a deployment sets); from
 * `build`, the folder of another build (a previous release's), when given.
 */
export async function leadsCli(
  storeDir: string,
  args: string[],
  env: Record<string, string> = {},
  build = process.cwd(),
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [join(build, "build/leads.js"), ...args], {
    cwd: build,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ENQUIRY_STORE_DIR: storeDir, ...env },
  });
}

/** Posts the enquiry form as the browser does (urlencoded), without following the redirect. */
export async function postEnquiry(url: string, values: Enquiry): Promise<Response> {
  return fetch(`${url}/?index`, {
    method: "POST",
    body: new URLSearchParams({ [HONEYPOT_FIELD]: "", ...values }),
    redirect: "manual",
  });
}

/**
 * Writes a lead file as the release before destinations did (name `<ms>-<id>.json`: a `pending`
 * EmailJS lead unless `lead` says otherwise), and returns its path.
 */
export function writeLeadFile(
  storeDir: string,
  lead: Partial<LeadFile> & Pick<LeadFile, "enquiry">,
): { path: string; lead: LeadFile } {
  const at = new Date(lead.receivedAt ?? Date.now());
  const made = newLead({ id: randomUUID(), enquiry: lead.enquiry, destinations: ["emailjs"], at });
  const { destinations: _destinations, state: _state, ...fields } = made;
  const full: LeadFile = { ...fields, ...ownFieldsOf(made), ...lead };
  const folder = join(storeDir, "leads");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, leadFileName(full));
  writeFileSync(path, `${JSON.stringify(full)}\n`);
  return { path, lead: full };
}

/**
 * Writes a lead file as this release does, going to `destinations` with the records given (its
 * state derived from them), and returns the lead.
 */
export function writeLeadWith(
  storeDir: string,
  lead: { enquiry: Enquiry; destinations: LeadDestinations; receivedAt?: string; source?: LeadSource },
): Lead {
  const at = new Date(lead.receivedAt ?? Date.now());
  const { enquiry, source } = lead;
  const made = newLead({ id: randomUUID(), enquiry, destinations: [], at, ...(source ? { source } : {}) });
  const full: Lead = { ...made, destinations: lead.destinations, state: leadStateOf(lead.destinations) };
  const folder = join(storeDir, "leads");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, leadFileName(full)), leadFileText(full));
  return full;
}

/** Copies the leads under `storeDir` into the database at `url` (migrated first), as a site moving to PostgreSQL does. */
export async function importLeadsInto(url: string, storeDir: string): Promise<void> {
  const database = createDatabase({ url, poolSize: 1, migrations: readMigrations(), log: () => {} });
  database.start();
  try {
    await database.ready();
    await importLeadFolder({ database, folder: join(storeDir, "leads"), log: () => {} });
  } finally {
    await database.stop();
  }
}
