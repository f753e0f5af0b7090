import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, readFormBody } from "~/enquiry/body.server";

const FORM = "application/x-www-form-urlencoded";

function post(body: BodyInit, headers: Record<string, string> = { "Content-Type": FORM }) {
  return new Request("http://localhost/?index", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
}

/** A body streamed in chunks with no Content-Length, counting how much was pulled. */
function streamed(totalBytes: number, chunkBytes = 1024) {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const size = Math.min(chunkBytes, totalBytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  return { stream, pulled: () => sent };
}

describe("readFormBody", () => {
  it("reads every occurrence of every field, decoding + and percent-escapes", async () => {
    const result = await readFormBody(
      post("name=Asha+Rao&message=%E0%A4%A8%E0%A4%AE%E0%A4%B8%E0%A5%8D%E0%A4%A4%E0%A5%87&name=x&empty="),
    );
    expect(result).toEqual({
      ok: true,
      fields: new Map([
        ["name", ["Asha Rao", "x"]],
        ["message", ["नमस्ते"]],
        ["empty", [""]],
      ]),
    });
  });

  it("normalises line breaks to \\n, as browsers count them for maxlength", async () => {
    const result = await readFormBody(post("message=a%0D%0Ab%0Dc%0Ad"));
    expect(result.ok && result.fields.get("message")).toEqual(["a\nb\nc\nd"]);
  });

  it("answers 413 for a declared length over the limit without reading", async () => {
    const { stream, pulled } = streamed(MAX_BODY_BYTES * 4);
    const request = post(stream, { "Content-Type": FORM, "Content-Length": String(MAX_BODY_BYTES + 1) });
    expect(await readFormBody(request)).toMatchObject({ ok: false, status: 413 });
    expect(pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  it("stops reading a streamed body soon after the limit", async () => {
    const { stream, pulled } = streamed(MAX_BODY_BYTES * 64);
    expect(await readFormBody(post(stream))).toMatchObject({ ok: false, status: 413 });
    expect(pulled()).toBeLessThan(MAX_BODY_BYTES * 2);
  });

  it("accepts a body of exactly the limit", async () => {
    const body = `message=${"a".repeat(MAX_BODY_BYTES - "message=".length)}`;
    expect((await readFormBody(post(body))).ok).toBe(true);
  });

  it("answers 400 for other content types, a missing body and invalid UTF-8", async () => {
    expect(await readFormBody(post("{}", { "Content-Type": "application/json" }))).toMatchObject({
      status: 400,
    });
    expect(
      await readFormBody(post("name=a", { "Content-Type": "multipart/form-data; boundary=x" })),
    ).toMatchObject({ status: 400 });
    expect(
      await readFormBody(
        new Request("http://localhost/", { method: "POST", headers: { "Content-Type": FORM } }),
      ),
    ).toMatchObject({ status: 400 });
    expect(await readFormBody(post(new Uint8Array([0x6e, 0x3d, 0xff, 0xfe])))).toMatchObject({ status: 400 });
    expect(await readFormBody(post("name=%FF"))).toMatchObject({ status: 400 });
    expect(await readFormBody(post("name=%E0%A4"))).toMatchObject({ status: 400 });
    expect(await readFormBody(post("name=%zz"))).toMatchObject({ status: 400 });
  });

  it("accepts the content type with a charset parameter", async () => {
    expect((await readFormBody(post("a=1", { "Content-Type": `${FORM}; charset=UTF-8` }))).ok).toBe(true);
  });
});
