/** Imports a lead folder into PostgreSQL once, when a server with DATABASE_URL starts beside one. */
import { readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Database } from "~/db/database.server";
import { createFolderLeadStore, erasedFolder } from "~/leads/folder/store.server";
import { LEAD_ID } from "~/leads/lead";
import { insertLeadOnce } from "~/leads/postgres/insert.server";

/**
 * The file that marks a leads folder as imported into the database: written once its leads
 * are, beside them (a name no lead file has). Its presence stops a second import; delete it
 * to import again (nothing doubles: the import skips ids the database already holds).
 */
export const IMPORT_MARKER = "imported-to-database.json";

/**
 * Moves the leads of a data folder into the database, once: every lead the folder store can
 * read, in its state, except those erased (their records are imported too, so no replica ever
 * writes them back). Idempotent by lead id; the files stay where they are. Returns how many
 * leads were new to the database, or null when there was nothing to do.
 */
export async function importLeadFolder(options: {
  database: Database;
  folder: string;
  log?: (line: string) => void;
  now?: () => Date;
}): Promise<number | null> {
  const { database, folder, log = console.error, now = () => new Date() } = options;
  const marker = join(folder, IMPORT_MARKER);
  if (await exists(marker)) return null;
  if (!(await exists(folder))) return null;
  const leads = await createFolderLeadStore({ folder, create: false, log }).scan();
  const erased = (await readdir(erasedFolder(folder)).catch(() => [] as string[])).filter((id) =>
    LEAD_ID.test(id),
  );
  const at = now().toISOString();
  const imported = await database.transaction(async (client) => {
    for (const id of erased) {
      await client.query("INSERT INTO erasures (id, erased_at) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
        id,
        at,
      ]);
    }
    let count = 0;
    for (const lead of leads) {
      if ((await insertLeadOnce(client, lead)) === "inserted") count += 1;
    }
    return count;
  });
  await writeFile(marker, `${JSON.stringify({ importedAt: at, leads: imported, read: leads.length })}\n`, {
    mode: 0o600,
  });
  log(
    `lead store: imported ${imported} lead${imported === 1 ? "" : "s"} from ${folder} into the database (${leads.length - imported} already there or erased); the files stay, marked by ${IMPORT_MARKER}`,
  );
  return imported;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
