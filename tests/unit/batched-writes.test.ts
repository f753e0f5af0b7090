import { describe, expect, it, vi } from "vitest";
import { createBatchedWrites } from "~/http/batched-writes.server";

/** A store whose writes finish when the test says so. */
function slowStore() {
  const batches: number[][] = [];
  const finishers: (() => void)[] = [];
  return {
    batches,
    finishNext: () => finishers.shift()?.(),
    write: (items: number[]) => {
      batches.push(items);
      return new Promise<void>((resolve) => finishers.push(resolve));
    },
  };
}

describe("batched writes", () => {
  it("writes what is queued once per batch, when its time comes", async () => {
    vi.useFakeTimers();
    try {
      const batches: number[][] = [];
      const queue = createBatchedWrites<number>({
        name: "test records",
        write: async (items) => batches.push(items),
        batchMs: 1_000,
      });
      expect(queue.add([1])).toBe(true);
      expect(queue.add([2, 3])).toBe(true);
      await vi.advanceTimersByTimeAsync(999);
      expect(batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1, 2, 3]]);
      queue.add([4]);
      await queue.flush();
      expect(batches).toEqual([[1, 2, 3], [4]]);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(batches).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("resolves a flush once every write before it is done, one write at a time", async () => {
    const store = slowStore();
    const queue = createBatchedWrites<number>({ name: "test records", write: store.write });
    queue.add([1]);
    const first = queue.flush();
    queue.add([2]);
    let flushed = false;
    const second = queue.flush().then(() => {
      flushed = true;
    });
    await vi.waitFor(() => expect(store.batches).toEqual([[1]]));
    store.finishNext();
    await first;
    await vi.waitFor(() => expect(store.batches).toEqual([[1], [2]]));
    expect(flushed).toBe(false);
    store.finishNext();
    await second;
    expect(flushed).toBe(true);
  });

  it("holds a bounded number of records, writing ones included, and says so once each way", async () => {
    const store = slowStore();
    const lines: string[] = [];
    const queue = createBatchedWrites<number>({
      name: "test records",
      write: store.write,
      maxQueued: 3,
      log: (line) => lines.push(line),
    });
    expect(queue.add([1, 2])).toBe(true);
    const first = queue.flush();
    await vi.waitFor(() => expect(store.batches).toEqual([[1, 2]]));
    expect(queue.add([3])).toBe(true);
    expect(queue.add([4])).toBe(false);
    expect(queue.add([5])).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/test records waiting for their write reached 3 records/)]);
    store.finishNext();
    await first;
    expect(queue.add([6])).toBe(true);
    expect(lines[1]).toMatch(/test records are queued again; 2 beacon\(s\) were dropped/);
    const flushed = queue.flush();
    await vi.waitFor(() => expect(store.batches).toHaveLength(2));
    store.finishNext();
    await flushed;
    expect(store.batches).toEqual([
      [1, 2],
      [3, 6],
    ]);
  });

  it("keeps writing after a write that failed", async () => {
    const batches: number[][] = [];
    const queue = createBatchedWrites<number>({
      name: "test records",
      write: async (items) => {
        batches.push(items);
        if (items[0] === 1) throw new Error("disk full");
      },
    });
    queue.add([1]);
    await queue.flush();
    queue.add([2]);
    await queue.flush();
    expect(batches).toEqual([[1], [2]]);
  });
});
