/** The lock that lets one process at a time deliver a store's leads, whichever store it is. */

/** The holder refreshes the lock this often. */
export const HEARTBEAT_MS = 2_000;

export interface DelivererLock {
  /** Takes the lock if it is free or stale; true when this process holds it. */
  acquire(): Promise<boolean>;
  /** Refreshes the heartbeat; false when another process has taken the lock over. */
  heartbeat(): Promise<boolean>;
  /** Whether this process still holds the lock (checked before each send). */
  holds(): Promise<boolean>;
  release(): Promise<void>;
}
