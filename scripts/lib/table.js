/** The aligned text tables the operator's commands and the benchmarks print. */

/** A table's lines: the header, its rule, and one line per row, each cell padded to its column's width. */
function tableOf(columns, widths) {
  const line = (cells) => cells.map((cell, index) => String(cell).padEnd(widths[index])).join("  ");
  return {
    head: () => {
      console.log(line(columns));
      console.log(widths.map((width) => "-".repeat(width)).join("  "));
    },
    row: (row) => console.log(line(columns.map((column) => row[column] ?? ""))),
  };
}

/** Prints rows of objects as an aligned text table. */
export function printTable(rows) {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column] ?? "").length)),
  );
  const table = tableOf(columns, widths);
  table.head();
  for (const row of rows) table.row(row);
}

/**
 * Prints the rows `readRows` yields as the same table as printTable, holding none of them: a
 * first read measures the columns, a second prints (`readRows` starts a fresh read each call).
 * Returns how many rows the first read found (none: nothing printed).
 */
export async function printStreamedTable(readRows) {
  const widths = new Map();
  let count = 0;
  for await (const row of readRows()) {
    count += 1;
    for (const [column, value] of Object.entries(row)) {
      widths.set(column, Math.max(widths.get(column) ?? column.length, String(value ?? "").length));
    }
  }
  if (count === 0) return 0;
  const table = tableOf([...widths.keys()], [...widths.values()]);
  table.head();
  for await (const row of readRows()) table.row(row);
  return count;
}
