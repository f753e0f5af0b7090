import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { FakeEmailJs } from "./fake-emailjs";

/** A lead as the store keeps it on disk (app/leads/lead.ts), read the way an operator would. */
export interface StoredLead {
  id: string;
  receivedAt: string;
  state: "pending" | "sent" | "failed" | "inbox";
  attempts: number;
  lastError: string | null;
  enquiry: { name: string; email: string; countryCode: string; phoneNumber: string; message: string };
}

/** Every lead file under ENQUIRY_STORE_DIR, oldest first (none when the folder is missing). */
export function readLeads(storeDir: string): StoredLead[] {
  const folder = join(storeDir, "leads");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(folder, name), "utf8")) as StoredLead);
}

export function leadNamed(storeDir: string, name: string): StoredLead | undefined {
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
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(process.cwd(), "build/leads.js"), ...args],
    {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ENQUIRY_STORE_DIR: storeDir },
    },
  );
  return stdout;
}
