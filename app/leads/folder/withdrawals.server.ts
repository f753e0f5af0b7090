/**
 * Withdrawals in the data folder: one small file per fact in `withdrawals/` (the record, each
 * notice, the mark of done), each with one writer, and a line per withdrawal in the day's count.
 */
import { appendFile, readdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import { isPerson, type PersonQuery } from "~/lead-parts/person";
import { leadsWithReference } from "~/lead-parts/reference";
import type { FolderLeadStore } from "~/leads/folder/store.server";
import { fsyncFolder, TEMP_PREFIX, writeFileWhole } from "~/leads/folder/writes.server";
import { DELIVERY_STATES, type DeliveryRecord, type Lead } from "~/leads/lead";
import {
  cleanedByHand,
  isNoticeTarget,
  type NoticeTarget,
  newNotice,
  noticeTargets,
  type Withdrawal,
  type WithdrawalStore,
} from "~/leads/withdrawals.server";

/** Beside `leads/`: the withdrawals' files. */
export function withdrawalsFolder(storeDir: string): string {
  return join(storeDir, "withdrawals");
}

/** How old a record without its destinations (a withdrawal cut short by a crash) is before it is finished. */
const UNFINISHED_AFTER_MS = 60_000;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const RECORD = new RegExp(`^(${UUID})\\.json$`);
const NOTICE = new RegExp(`^(${UUID})\\.([a-z]+)\\.json$`);
const DONE = new RegExp(`^(${UUID})\\.done$`);
const DAYS = "days.log";

/**
 * `<lead id>.json`: the lead's id, when, and the destinations that may hold it (null while its
 * erasure is under way: written before it, so a crash in between is finished later).
 */
interface RecordFile {
  leadId: string;
  withdrawnAt: string;
  holding: DestinationName[] | null;
  /** Whether the team chat hears of it, as the withdrawing server was configured. */
  chat: boolean;
}

/** What the folder holds of one withdrawal. */
interface Found {
  record: RecordFile;
  notices: Map<NoticeTarget, DeliveryRecord>;
  doneAt: string | null;
}

/**
 * Withdrawals in `folder` (ENQUIRY_STORE_DIR/withdrawals), beside the folder store whose leads they
 * erase. Each file has one writer: the record and its notices' first state by the withdrawing
 * server, the notices' outcomes by the deliverer (the only process that tells, `tellNext`), the
 * mark of done by the operator's command. Every file is written whole (temporary file, fsync,
 * rename, folder fsync) and only a name of the right shape is read; the lead's id is the name's.
 */
export function createFolderWithdrawals(options: {
  store: FolderLeadStore;
  folder: string;
  now?: () => Date;
  log?: (line: string) => void;
}): WithdrawalStore {
  const { store, folder, now = () => new Date(), log = console.error } = options;
  const said = new Set<string>();
  const sayOnce = (line: string) => {
    if (said.has(line)) return;
    said.add(line);
    log(line);
  };

  const writeRecord = (record: RecordFile) =>
    writeFileWhole(folder, `${record.leadId}.json`, `${JSON.stringify(record)}\n`);
  const writeNotice = (id: string, target: NoticeTarget, record: DeliveryRecord) =>
    writeFileWhole(folder, `${id}.${target}.json`, `${JSON.stringify(record)}\n`);
  const markDone = async (id: string, at: Date) => {
    await writeFile(join(folder, `${id}.done`), `${JSON.stringify({ doneAt: at.toISOString() })}\n`, {
      flag: "wx",
      mode: 0o600,
      flush: true,
    });
    await fsyncFolder(folder);
  };

  /**
   * Erases `lead` (when given: it is still kept) and records what may hold it, its notices and,
   * with nothing for the team to erase by hand, its mark of done; the record's destinations last.
   */
  const erase = async (record: RecordFile, lead: Lead | null) => {
    // A lead already gone when a crash is finished: any destination may hold it.
    const holding = lead ? await store.erase(lead) : [...DESTINATIONS];
    for (const target of noticeTargets(holding, record.chat)) {
      await writeNewNotice(record.leadId, target, newNotice(new Date(record.withdrawnAt)));
    }
    if (!cleanedByHand(holding))
      await markDone(record.leadId, new Date(record.withdrawnAt)).catch(alreadyThere);
    await writeRecord({ ...record, holding });
  };
  const writeNewNotice = async (id: string, target: NoticeTarget, record: DeliveryRecord) => {
    const existing = await readNotice(`${id}.${target}.json`);
    if (existing === null) await writeNotice(id, target, record);
  };

  const readJson = async (name: string): Promise<unknown> => {
    try {
      return JSON.parse(await readFile(join(folder, name), "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      sayOnce(`withdrawals: ${join(folder, name)} cannot be read (${codeOf(error)}); skipped`);
      return null;
    }
  };
  const readRecord = async (name: string, id: string): Promise<RecordFile | null> => {
    const value = await readJson(name);
    const record = recordFrom(value, id);
    if (value !== null && record === null)
      sayOnce(`withdrawals: ${join(folder, name)} is not a withdrawal; skipped`);
    return record;
  };
  const readNotice = async (name: string): Promise<DeliveryRecord | null> => noticeFrom(await readJson(name));

  /** Everything the folder holds, by lead id. */
  const readAll = async (): Promise<Map<string, Found>> => {
    const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [] as string[];
      throw error;
    });
    const found = new Map<string, Found>();
    for (const name of names) {
      const id = RECORD.exec(name)?.[1];
      if (id === undefined) continue;
      const record = await readRecord(name, id);
      if (record) found.set(id, { record, notices: new Map(), doneAt: null });
    }
    for (const name of names) {
      const notice = NOTICE.exec(name);
      const entry = notice ? found.get(notice[1] ?? "") : undefined;
      const target = notice?.[2] ?? "";
      if (entry && isNoticeTarget(target, DESTINATIONS)) {
        const record = await readNotice(name);
        if (record) entry.notices.set(target, record);
      }
      const done = DONE.exec(name);
      const doneEntry = done ? found.get(done[1] ?? "") : undefined;
      if (doneEntry) {
        const value = (await readJson(name)) as { doneAt?: unknown } | null;
        doneEntry.doneAt = typeof value?.doneAt === "string" ? value.doneAt : new Date(0).toISOString();
      }
    }
    return found;
  };

  /**
   * Finishes the withdrawals a crash cut short between their first record and their erasure;
   * whether there were any.
   */
  const finishUnfinished = async (found: Map<string, Found>) => {
    const cutoff = now().getTime() - UNFINISHED_AFTER_MS;
    const unfinished = [...found.values()].filter(
      ({ record }) => record.holding === null && Date.parse(record.withdrawnAt) < cutoff,
    );
    if (unfinished.length === 0) return false;
    await store.scan();
    const kept = new Map(store.leads().map((lead) => [lead.id, lead]));
    for (const { record } of unfinished) {
      await erase(record, kept.get(record.leadId) ?? null);
      log(`withdrawals: finished the withdrawal of lead ${record.leadId}, cut short before`);
    }
    return true;
  };

  const withdrawalOf = ({ record, notices, doneAt }: Found): Withdrawal => ({
    leadId: record.leadId,
    withdrawnAt: record.withdrawnAt,
    holding: record.holding ?? [...DESTINATIONS],
    doneAt,
    notices: Object.fromEntries(notices),
  });

  return {
    async withdraw({ reference, address }, { at, chat }) {
      // The same reads whatever they find: the folder rescanned, then every lead it holds twice.
      await store.scan();
      const leads = store.leads();
      const query: PersonQuery = { kind: "email", address };
      const person = leads.filter((lead) => isPerson(lead.enquiry, query));
      const matched = leadsWithReference(leads, reference).some((lead) => isPerson(lead.enquiry, query));
      if (!matched) return { erased: [] };
      for (const lead of person) {
        const record: RecordFile = { leadId: lead.id, withdrawnAt: at.toISOString(), holding: null, chat };
        await writeRecord(record);
        await erase(record, lead);
      }
      await appendFile(join(folder, DAYS), `${at.toISOString().slice(0, 10)}\n`, {
        mode: 0o600,
        flush: true,
      });
      return { erased: person.map((lead) => lead.id) };
    },

    async tellNext(targets, tell) {
      let found = await readAll();
      if (await finishUnfinished(found)) found = await readAll();
      const time = now().getTime();
      let next: { id: string; target: NoticeTarget; record: DeliveryRecord; due: number } | null = null;
      for (const [id, entry] of found) {
        for (const [target, record] of entry.notices) {
          if (record.state !== "pending" || !targets.includes(target)) continue;
          const due = Date.parse(record.nextAttemptAt);
          // Soonest due, then by lead id and target, as PostgreSQL orders them.
          const key = `${id}.${target}`;
          if (next === null || due < next.due || (due === next.due && key < `${next.id}.${next.target}`))
            next = { id, target, record, due };
        }
      }
      if (next === null) return { told: false, dueAt: null };
      if (next.due > time) return { told: false, dueAt: next.due };
      const entry = found.get(next.id) as Found;
      const after = await tell(withdrawalOf(entry), next.target, next.record);
      await writeNotice(next.id, next.target, after);
      // A destination that gave up on hearing of it: its copy is the team's to erase by hand.
      if (after.state === "failed" && next.target !== "chat") {
        await unlink(join(folder, `${next.id}.done`)).catch(() => undefined);
      }
      return { told: true };
    },

    async open() {
      const found = await readAll();
      return [...found.values()]
        .filter((entry) => entry.doneAt === null)
        .map(withdrawalOf)
        .sort((a, b) => a.withdrawnAt.localeCompare(b.withdrawnAt) || a.leadId.localeCompare(b.leadId));
    },

    async markDone(leadId, at) {
      const id = leadId.trim().toLowerCase();
      if (!new RegExp(`^${UUID}$`).test(id) || (await readRecord(`${id}.json`, id)) === null)
        return "unknown";
      try {
        await markDone(id, at);
        return "done";
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return "already done";
        throw error;
      }
    },

    async perDay(since) {
      const text = await readFile(join(folder, DAYS), "utf8").catch(() => "");
      const from = since.toISOString().slice(0, 10);
      const counts = new Map<string, number>();
      for (const day of text.split("\n")) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day < from) continue;
        counts.set(day, (counts.get(day) ?? 0) + 1);
      }
      return [...counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, withdrawals]) => ({ day, withdrawals }));
    },

    async prune() {
      const found = await readAll();
      for (const [id, entry] of found) {
        if (entry.doneAt === null || entry.record.holding === null) continue;
        if ([...entry.notices.values()].some((record) => record.state === "pending")) continue;
        for (const target of entry.notices.keys()) await unlink(join(folder, `${id}.${target}.json`));
        await unlink(join(folder, `${id}.json`));
        await unlink(join(folder, `${id}.done`));
      }
      // Temporary files a crash left behind.
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (name.startsWith(TEMP_PREFIX)) await unlink(join(folder, name)).catch(() => undefined);
      }
    },
  };
}

const alreadyThere = (error: NodeJS.ErrnoException) => {
  if (error.code !== "EEXIST") throw error;
};

const codeOf = (error: unknown) =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** A record file's content, when it is one and names lead `id`. */
function recordFrom(value: unknown, id: string): RecordFile | null {
  if (typeof value !== "object" || value === null) return null;
  const { leadId, withdrawnAt, holding, chat } = value as Record<string, unknown>;
  if (leadId !== id || typeof withdrawnAt !== "string" || Number.isNaN(Date.parse(withdrawnAt))) return null;
  const names = DESTINATIONS as readonly unknown[];
  if (holding !== null && !(Array.isArray(holding) && holding.every((name) => names.includes(name))))
    return null;
  return {
    leadId: id,
    withdrawnAt,
    holding: holding === null ? null : DESTINATIONS.filter((name) => holding.includes(name)),
    chat: chat === true,
  };
}

/** A notice file's content, when it is a delivery record. */
function noticeFrom(value: unknown): DeliveryRecord | null {
  if (typeof value !== "object" || value === null) return null;
  const { state, attempts, lastError, nextAttemptAt, queuedAt } = value as Record<string, unknown>;
  if (!(DELIVERY_STATES as readonly unknown[]).includes(state)) return null;
  if (typeof attempts !== "number" || !Number.isInteger(attempts) || attempts < 0) return null;
  if (lastError !== null && typeof lastError !== "string") return null;
  if (typeof nextAttemptAt !== "string" || Number.isNaN(Date.parse(nextAttemptAt))) return null;
  if (typeof queuedAt !== "string" || Number.isNaN(Date.parse(queuedAt))) return null;
  return { state: state as DeliveryRecord["state"], attempts, lastError, nextAttemptAt, queuedAt };
}
