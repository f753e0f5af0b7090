import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  enquiryBody,
  enquiryForm,
  expectFormValues,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { test as base, expect } from "../support/fixtures";
import { readLeads } from "../support/lead-fixtures";
import { healthDetails, type RunningServer, startServer } from "../support/server-process";

const LIMIT = 2;

/** The app with a lead store of its own (no EmailJS: the inbox), a small budget, behind a trusted proxy. */
const test = base.extend<
  { stored: () => unknown[] },
  { limited: { server: RunningServer; storeDir: string } }
>({
  limited: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const folder = mkdtempSync(join(tmpdir(), "enquiry-abuse-"));
      const storeDir = join(folder, "data");
      const server = await startServer({
        env: {
          ENQUIRY_STORE_DIR: storeDir,
          ENQUIRY_RATE_LIMIT: String(LIMIT),
          ENQUIRY_RATE_WINDOW: "600",
          TRUST_PROXY: "1",
        },
      });
      await use({ server, storeDir });
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  stored: async ({ limited }, use) => {
    await use(() => readLeads(limited.storeDir));
  },
  baseURL: async ({ limited }, use) => use(limited.server.url),
});

let clients = 0;
/**
 * A fresh client each time, so tests never share a rate-limit budget: the header as one
 * trusted proxy (TRUST_PROXY=1) leaves it, a forged entry first and the address it saw last.
 */
function nextClient(): string {
  clients += 1;
  return `203.0.113.250, 198.51.100.${clients}`;
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

test.describe("bodies the action refuses", () => {
  test("a declared body over 16 KiB is answered 413 without reading it", async ({ request, stored }) => {
    const before = stored().length;
    const response = await request.post("/?index", {
      headers: { ...FORM, "X-Forwarded-For": nextClient() },
      data: Buffer.alloc(16 * 1024 + 1, "a"),
    });
    expect(response.status()).toBe(413);
    expect(await response.text()).toContain(NOTICE.invalid);
    expect(stored()).toHaveLength(before);
  });

  test("a streamed body without a length is cut off past 16 KiB with 413", async ({ baseURL }) => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * 1024) return controller.close();
        sent += 4096;
        controller.enqueue(new Uint8Array(4096).fill(0x61));
      },
    });
    const response = await fetch(`${baseURL}/?index`, {
      method: "POST",
      headers: FORM,
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(NOTICE.invalid);
  });

  /** A request through `agent`, reporting the answer and which pooled socket carried it. */
  function send(
    agent: Agent,
    url: string,
    options: { method?: string; headers?: Record<string, string | number>; body?: Buffer } = {},
  ): Promise<{ status: number; connection: string; socket: Socket }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        url,
        { agent, method: options.method, headers: options.headers },
        (response) => {
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              connection: String(response.headers.connection),
              socket: request.socket as Socket,
            }),
          );
        },
      );
      request.on("error", reject);
      request.end(options.body);
    });
  }

  for (const [label, headers] of [
    ["a declared 1 MiB body", { "Content-Length": 1024 * 1024 }],
    ["a chunked 1 MiB body", { "Transfer-Encoding": "chunked" }],
  ] as const) {
    test(`${label} answered 413 closes its connection cleanly; the pooled client goes on on a new one`, async ({
      baseURL,
    }) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const sockets = new Set<Socket>();
        const warmUp = await send(agent, `${baseURL}/robots.txt`);
        sockets.add(warmUp.socket);
        expect(warmUp).toMatchObject({ status: 200, connection: "keep-alive" });
        const refused = await send(agent, `${baseURL}/?index`, {
          method: "POST",
          headers: { ...FORM, ...headers },
          body: Buffer.alloc(1024 * 1024, "a"),
        });
        sockets.add(refused.socket);
        expect(refused).toMatchObject({ status: 413, connection: "close" });
        for (let index = 0; index < 3; index += 1) {
          const next = await send(agent, `${baseURL}/robots.txt`);
          sockets.add(next.socket);
          expect(next.status).toBe(200);
        }
        // The warm-up connection carried the refused post and was closed; one new one served the rest.
        expect(sockets.size).toBe(2);
      } finally {
        agent.destroy();
      }
    });
  }

  test("an early 400 and a 405 close the connection when the body was not read, and only then", async ({
    baseURL,
  }) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const large = Buffer.alloc(1024 * 1024, "a");
    try {
      const json = await send(agent, `${baseURL}/?index`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
        body: large,
      });
      expect(json).toMatchObject({ status: 400, connection: "close" });
      const put = await send(agent, `${baseURL}/`, { method: "PUT", headers: FORM, body: large });
      expect(put).toMatchObject({ status: 405, connection: "close" });
      // A small body arrives with its headers: it is read, and the connection stays.
      const small = await send(agent, `${baseURL}/?index`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: Buffer.from("{}"),
      });
      expect(small).toMatchObject({ status: 400, connection: "keep-alive" });
      const after = await send(agent, `${baseURL}/healthz`);
      expect(after.status).toBe(200);
      expect(new Set([json.socket, put.socket, small.socket]).size).toBe(3);
      expect(after.socket).toBe(small.socket);
    } finally {
      agent.destroy();
    }
  });

  const valid = () => enquiryBody(validEnquiry());
  const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const cases: Array<[string, () => { headers: Record<string, string>; data: string | Buffer }]> = [
    [
      "a JSON body",
      () => ({ headers: { "Content-Type": "application/json" }, data: JSON.stringify(valid()) }),
    ],
    ["a text body", () => ({ headers: { "Content-Type": "text/plain" }, data: encode(valid()) })],
    [
      "a multipart body",
      () => ({
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
        data: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAsha\r\n--x--\r\n',
      }),
    ],
    [
      "raw bytes that are not UTF-8",
      () => ({ headers: FORM, data: Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xff]) }),
    ],
    ["percent-escapes that are not UTF-8", () => ({ headers: FORM, data: `${encode(valid())}&name=%C3%28` })],
    ["a repeated field", () => ({ headers: FORM, data: `${encode(valid())}&email=other%40example.in` })],
    [
      "a missing message field",
      () => {
        const { message: _message, ...rest } = valid();
        return { headers: FORM, data: encode(rest) };
      },
    ],
    ["over-long fields", () => ({ headers: FORM, data: encode({ ...valid(), name: "n".repeat(41) }) })],
    [
      "a line break in the name",
      () => ({ headers: FORM, data: encode({ ...valid(), name: "Asha\r\nBcc: x@example.in" }) }),
    ],
    [
      "a bidi override in the e-mail",
      () => ({ headers: FORM, data: encode({ ...valid(), email: "asha\u202E@example.in" }) }),
    ],
    [
      "a NUL in the message",
      () => ({ headers: FORM, data: encode({ ...valid(), message: "Hello\u0000there" }) }),
    ],
    [
      "two addresses in the e-mail",
      () => ({ headers: FORM, data: encode({ ...valid(), email: "a@example.in, b@example.in" }) }),
    ],
  ];
  for (const [label, make] of cases) {
    test(`${label} is answered 400 with the validation notice`, async ({ request, stored }) => {
      const before = stored().length;
      const { headers, data } = make();
      const response = await request.post("/?index", {
        headers: { ...headers, "X-Forwarded-For": nextClient() },
        data,
        maxRedirects: 0,
      });
      expect(response.status()).toBe(400);
      expect(await response.text()).toContain(NOTICE.invalid);
      expect(stored()).toHaveLength(before);
    });
  }
});

test.describe("the rate limit", () => {
  test("a client gets ENQUIRY_RATE_LIMIT enquiries per window, then 429; others are not affected", async ({
    request,
    stored,
  }) => {
    const client = nextClient();
    const post = (forwardedFor: string) =>
      request.post("/?index", {
        headers: { "X-Forwarded-For": forwardedFor },
        form: enquiryBody(validEnquiry()),
        maxRedirects: 0,
      });
    const before = stored().length;
    for (let index = 0; index < LIMIT; index += 1) expect((await post(client)).status()).toBe(303);
    const refused = await post(client);
    expect(refused.status()).toBe(429);
    // Seconds until the client's window frees: the window is 600 s and began moments ago.
    const retryAfter = Number(refused.headers()["retry-after"]);
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await refused.text()).toContain(NOTICE.failed);
    expect(stored()).toHaveLength(before + LIMIT);
    expect((await post(nextClient())).status()).toBe(303);
  });

  test("forged X-Forwarded-For entries buy no fresh budget and cannot spend a victim's", async ({
    request,
  }) => {
    const real = nextClient().split(", ")[1] ?? "";
    const victim = nextClient().split(", ")[1] ?? "";
    const post = (forwardedFor: string) =>
      request.post("/?index", {
        headers: { "X-Forwarded-For": forwardedFor },
        form: enquiryBody(validEnquiry()),
        maxRedirects: 0,
      });
    // Seven posts, each naming a different address first: the proxy's entry (last) is the same.
    const statuses: number[] = [];
    for (let index = 0; index < 7; index += 1)
      statuses.push((await post(`203.0.113.${index}, ${real}`)).status());
    expect(statuses).toEqual([303, 303, 429, 429, 429, 429, 429]);
    // Five posts naming the victim first: they count against the sender, never the victim.
    for (let index = 0; index < 5; index += 1) expect((await post(`${victim}, ${real}`)).status()).toBe(429);
    expect((await post(`203.0.113.250, ${victim}`)).status()).toBe(303);
  });

  for (const javaScriptEnabled of [true, false]) {
    test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
      test.use({ javaScriptEnabled, allowedProblems: [/^HTTP 429 /] });

      test("a limited visitor sees the failure notice and keeps every field", async ({ page, request }) => {
        const client = nextClient();
        for (let index = 0; index < LIMIT; index += 1) {
          await request.post("/?index", {
            headers: { "X-Forwarded-For": client },
            form: enquiryBody(validEnquiry()),
            maxRedirects: 0,
          });
        }
        await page.setExtraHTTPHeaders({ "X-Forwarded-For": client });
        await page.goto("/");
        if (javaScriptEnabled) await waitForHydration(page);
        const values = validEnquiry();
        await fillEnquiry(page, values);
        const form = enquiryForm(page);
        const response = page.waitForResponse((candidate) => candidate.request().method() === "POST");
        await form.submit.click();
        expect((await response).status()).toBe(429);
        expect(Number((await (await response).allHeaders())["retry-after"])).toBeGreaterThan(0);
        await expect(form.notice).toHaveText(NOTICE.failed);
        await expectFormValues(page, values);
      });
    });
  }
});

test.describe("other configurations", () => {
  test("without TRUST_PROXY nobody is refused for others' traffic below the flood level, then 429 with Retry-After", async ({
    request,
  }) => {
    const folder = mkdtempSync(join(tmpdir(), "enquiry-untrusted-"));
    const server = await startServer({
      env: {
        ENQUIRY_STORE_DIR: join(folder, "data"),
        ENQUIRY_RATE_LIMIT: "1",
        ENQUIRY_FLOOD_LIMIT: "4",
        TRUST_PROXY: "0",
      },
    });
    try {
      const post = (values = validEnquiry(), forwardedFor = "203.0.113.1") =>
        request.post(`${server.url}/?index`, {
          headers: { "X-Forwarded-For": forwardedFor },
          form: enquiryBody(values),
          maxRedirects: 0,
        });
      // Four visitors (one address or many: nothing here is trustworthy) are all served,
      // although the per-client limit is 1.
      const statuses: number[] = [];
      for (let index = 0; index < 4; index += 1)
        statuses.push((await post(validEnquiry(), `203.0.113.${index % 2}`)).status());
      expect(statuses).toEqual([303, 303, 303, 303]);
      const values = validEnquiry();
      const refused = await post(values, "198.51.100.77");
      expect(refused.status()).toBe(429);
      expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(590);
      const html = await refused.text();
      expect(html).toContain(NOTICE.failed);
      expect(html).toContain(`value="${values.name}"`);
      expect(readLeads(join(folder, "data"))).toHaveLength(4);
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("with no EmailJS settings, enquiries are kept as inbox leads in ./data and start-up says so", async ({
    request,
  }) => {
    const folder = mkdtempSync(join(tmpdir(), "enquiry-default-"));
    const root = process.cwd();
    const server = await startServer({
      cwd: folder,
      command: [process.execPath, join(root, "build/server.js")],
      // Blank is unset: the default folder, not the temporary one startServer would choose.
      env: { ENQUIRY_STORE_DIR: "" },
    });
    try {
      expect(server.output()).toContain(
        "enquiries are kept as inbox leads in ./data (read them with npm run leads)",
      );
      const values = validEnquiry();
      const response = await request.post(`${server.url}/?index`, {
        form: enquiryBody(values),
        maxRedirects: 0,
      });
      expect(response.status()).toBe(303);
      const leads = readLeads(join(folder, "data"));
      expect(leads).toHaveLength(1);
      expect(leads[0]).toMatchObject({ state: "inbox", attempts: 0, lastError: null, enquiry: values });
      // Nothing to deliver: an inbox lead is neither pending nor failed.
      const health = await healthDetails(server.url);
      expect(health).toMatchObject({ store: "ok", leads: { pending: 0, failed: 0 } });
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a partial EmailJS configuration is logged by name; enquiries are kept pending until it is fixed", async ({
    request,
  }) => {
    const folder = mkdtempSync(join(tmpdir(), "enquiry-partial-"));
    const storeDir = join(folder, "data");
    const server = await startServer({
      env: { EMAILJS_SERVICE_ID: "service_only", ENQUIRY_RATE_LIMIT: "0", ENQUIRY_STORE_DIR: storeDir },
    });
    try {
      expect(server.output()).toContain("missing EMAILJS_TEMPLATE_ID, EMAILJS_PUBLIC_KEY");
      const values = validEnquiry();
      const response = await request.post(`${server.url}/?index`, {
        form: enquiryBody(values),
        maxRedirects: 0,
      });
      expect(response.status()).toBe(303);
      expect(readLeads(storeDir)).toMatchObject([{ state: "pending", attempts: 0, enquiry: values }]);
      const health = await healthDetails(server.url);
      expect(health).toMatchObject({ store: "ok", leads: { pending: 1, failed: 0 } });
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

test.describe("simultaneous enquiries", () => {
  // Each test starts a server of its own and sends its burst at once: slow on a busy machine.
  test.slow();

  /** A server of its own behind one trusted proxy, with the limits in `env`. */
  async function limitedServer(env: Record<string, string>) {
    const folder = mkdtempSync(join(tmpdir(), "enquiry-simultaneous-"));
    const storeDir = join(folder, "data");
    const server = await startServer({
      env: { ENQUIRY_STORE_DIR: storeDir, ENQUIRY_RATE_LIMIT: "0", TRUST_PROXY: "1", ...env },
    });
    return {
      server,
      storeDir,
      async stop() {
        await server.stop();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }

  /**
   * Sends every body at once, each on its own connection, and answers the statuses and headers.
   * `data`: as the enhanced form posts (a refusal is data, not a whole page to render); a
   * redirect then reads 202 with the target in the body.
   */
  async function sendAtOnce(
    url: string,
    posts: Array<{ client: string; body: Record<string, string> }>,
    target: "document" | "data" = "data",
  ) {
    return Promise.all(
      posts.map(async ({ client, body }) => {
        const response = await fetch(`${url}/${target === "data" ? "_root.data" : ""}?index`, {
          method: "POST",
          headers: { ...FORM, "X-Forwarded-For": client, Connection: "close" },
          body: new URLSearchParams(body),
          redirect: "manual",
        });
        const text = await response.text();
        const redirected = response.status === 202 && text.includes('"redirect"');
        return { status: redirected ? 303 : response.status, headers: response.headers };
      }),
    );
  }

  const tally = (answers: Array<{ status: number }>) =>
    answers.reduce<Record<number, number>>((counts, { status }) => {
      counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    }, {});

  test("20 at once from one client with ENQUIRY_THROTTLE=600: one is kept, 19 get 429 with Retry-After", async () => {
    const app = await limitedServer({ ENQUIRY_THROTTLE: "600" });
    try {
      const client = nextClient();
      const answers = await sendAtOnce(
        app.server.url,
        Array.from({ length: 20 }, () => ({ client, body: enquiryBody(validEnquiry()) })),
      );
      expect(tally(answers)).toEqual({ 303: 1, 429: 19 });
      for (const answer of answers.filter(({ status }) => status === 429)) {
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(590);
      }
      expect(readLeads(app.storeDir)).toHaveLength(1);
      await expect.poll(() => app.server.output().match(/"reason":"throttle"/g)?.length).toBe(19);
    } finally {
      await app.stop();
    }
  });

  test("10 at once from one client with ENQUIRY_RATE_LIMIT=3: three are kept", async () => {
    const app = await limitedServer({ ENQUIRY_RATE_LIMIT: "3" });
    try {
      const client = nextClient();
      const answers = await sendAtOnce(
        app.server.url,
        Array.from({ length: 10 }, () => ({ client, body: enquiryBody(validEnquiry()) })),
      );
      expect(tally(answers)).toEqual({ 303: 3, 429: 7 });
      expect(readLeads(app.storeDir)).toHaveLength(3);
      await expect.poll(() => app.server.output().match(/"reason":"per-client budget"/g)?.length).toBe(7);
    } finally {
      await app.stop();
    }
  });

  test("30 at once from 30 clients with ENQUIRY_FLOOD_LIMIT=5: five are kept, the refusals name the flood level", async () => {
    const app = await limitedServer({ ENQUIRY_FLOOD_LIMIT: "5", ENQUIRY_RATE_LIMIT: "5" });
    try {
      const answers = await sendAtOnce(
        app.server.url,
        Array.from({ length: 30 }, () => ({ client: nextClient(), body: enquiryBody(validEnquiry()) })),
      );
      expect(tally(answers)).toEqual({ 303: 5, 429: 25 });
      expect(readLeads(app.storeDir)).toHaveLength(5);
      await expect.poll(() => app.server.output().match(/"reason":"flood level"/g)?.length).toBe(25);
      expect(app.server.output()).not.toContain('"reason":"per-client budget"');
    } finally {
      await app.stop();
    }
  });

  test("honeypot posts past the flood level get the same 303 as the kept ones, a reference each, and keep nothing", async () => {
    const app = await limitedServer({ ENQUIRY_FLOOD_LIMIT: "3" });
    try {
      const answers = await sendAtOnce(
        app.server.url,
        Array.from({ length: 12 }, () => ({
          client: nextClient(),
          body: { ...enquiryBody(validEnquiry()), company_website: "https://spam.example" },
        })),
        "document",
      );
      expect(tally(answers)).toEqual({ 303: 12 });
      // Every 303 carries a notice token with a reference (decision 039): the three kept in the
      // quarantine their own, the nine past the flood level a random one of the same shape, so a
      // bot cannot tell which were kept.
      const locations = answers.map(({ headers }) => headers.get("location") ?? "");
      const references = locations.map((location) => /\.(NRM-[0-9A-Z]{4}-[0-9A-Z]{4})\./.exec(location)?.[1]);
      expect(references.filter((reference) => reference !== undefined)).toHaveLength(12);
      expect(new Set(references).size).toBe(12);
      expect(readLeads(app.storeDir)).toHaveLength(3);
      // A bot that follows every redirect claims the tokens it was given, each once: markers the
      // server sweeps with the rest (a bound of MAX_CLAIMS, tests below).
      for (const location of locations) await (await fetch(`${app.server.url}${location}`)).arrayBuffer();
      expect(readdirSync(join(app.storeDir, "notices"))).toHaveLength(12);
    } finally {
      await app.stop();
    }
  });
});

test.describe("success notice markers", () => {
  test("markers of expired tokens are swept by the server on its own, with no token redeemed", async () => {
    const folder = mkdtempSync(join(tmpdir(), "enquiry-markers-"));
    const storeDir = join(folder, "data");
    const notices = join(storeDir, "notices");
    mkdirSync(notices, { recursive: true });
    const marker = (index: number) => `marker${String(index).padStart(16, "0")}`;
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (let index = 0; index < 300; index += 1) {
      writeFileSync(join(notices, marker(index)), "");
      utimesSync(join(notices, marker(index)), anHourAgo, anHourAgo);
    }
    // A token redeemed a moment ago: its marker must stay until the token has expired.
    writeFileSync(join(notices, marker(300)), "");
    const server = await startServer({ env: { ENQUIRY_STORE_DIR: storeDir } });
    try {
      await expect.poll(() => readdirSync(notices)).toEqual([marker(300)]);
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
