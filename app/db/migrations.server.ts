import type { Migration } from "~/db/migrate.server";
import { SHARED_STATE_MIGRATION } from "~/db/shared-state-schema.server";

/**
 * The schema, in order. Append; never edit a migration a release has shipped. A release only
 * expands (see ~/db/migrate.server), so the previous release runs beside it during a rolling deploy.
 */
export const MIGRATIONS: readonly Migration[] = [SHARED_STATE_MIGRATION];
