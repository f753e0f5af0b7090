/**
 * Rows written in one statement, at most: a statement binds at most 65,535 parameters
 * (PostgreSQL's protocol), and a batch of beacons can hold tens of thousands of rows.
 */
export const ROWS_PER_STATEMENT = 1_000;

/** `rows` in consecutive chunks of at most `size`. */
export function rowChunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
}
