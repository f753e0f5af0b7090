/** What a campaign count store promises (the data folder's and PostgreSQL's). */
import type { CountEvent, CountRow, Grouping } from "~/campaigns/counts";

export interface CampaignCountStore {
  /** Counts each event once, durably (fsync'd, or committed) before it resolves; false when it cannot (said once in the log). */
  add(events: readonly CountEvent[]): Promise<boolean>;
  /**
   * The rows of the days from `since` to `until` (both included, `YYYY-MM-DD`), summed as `by`
   * says (~/campaigns/counts: groupRows); throws when the store cannot be read.
   */
  read(since: string, until: string, by?: Grouping): Promise<CountRow[]>;
  /** Drops days past the retention, as of `today`; the folder also compacts finished days. */
  prune(today: string): Promise<void>;
}
