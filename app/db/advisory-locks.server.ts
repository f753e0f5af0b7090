/**
 * Every PostgreSQL advisory lock the site takes, by name, and the key each name stands for.
 * During a rolling deploy replicas of two releases take these locks on one database, so a
 * released name keeps its key for good: the keys released before names were derived stay as
 * they were, and a lock added later takes the key derived from its name
 * (docs/decisions/020-advisory-lock-keys.md).
 */
import { createHash } from "node:crypto";

/** Keys of the one-key locks (`pg_advisory_lock(bigint)`) released before keys were derived. */
const RELEASED_KEYS: Readonly<Record<string, bigint>> = {
  migration: 7_360_221_024n,
  deliverer: 7_360_221_025n,
};

/** First keys of the two-key locks (`pg_advisory_xact_lock(int, int)`) released before keys were derived. */
const RELEASED_SPACES: Readonly<Record<string, number>> = {
  "lead id": 7_360_222,
};

const digest = (name: string) => createHash("sha256").update(`agency-site advisory lock: ${name}`).digest();

/** The key of the one-key lock `name`: its released key, or the first 8 bytes of its name's sha256. */
export function lockKey(name: string): bigint {
  return RELEASED_KEYS[name] ?? digest(name).readBigInt64BE(0);
}

/**
 * The first key of the two-key locks named `name`, one lock per second key: its released key,
 * or the first 4 bytes of its name's sha256. (PostgreSQL keeps one-key and two-key locks apart.)
 */
export function lockSpace(name: string): number {
  return RELEASED_SPACES[name] ?? digest(name).readInt32BE(0);
}

/** Held while a replica migrates: replicas starting together migrate one at a time. */
export const MIGRATION_LOCK = lockKey("migration");
/** Held by the one replica that delivers leads. */
export const DELIVERER_LOCK = lockKey("deliverer");
/** One transaction lock per lead id (the second key `hashtext(id)`): an erase against an import of that id. */
export const LEAD_ID_LOCKS = lockSpace("lead id");
