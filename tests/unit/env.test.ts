import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";

describe("parseEnv", () => {
  it("applies every default on an empty environment", () => {
    const lines: string[] = [];
    const env = parseEnv({}, (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(env).toMatchObject({
      PORT: 3000,
      EMAILJS_ORIGIN: "api.emailjs.com",
      ENQUIRY_STORE_DIR: "./data",
      ENQUIRY_RETENTION_DAYS: 90,
      ENQUIRY_SEND_INTERVAL_MS: 1000,
      ENQUIRY_RATE_LIMIT: 5,
      ENQUIRY_RATE_WINDOW: 600,
      TRUST_PROXY: false,
      SITE_URL: "http://localhost:3000",
    });
    expect(env.EMAILJS_SERVICE_ID).toBeUndefined();
  });

  it("reads valid values and treats blank ones as unset", () => {
    const env = parseEnv({
      PORT: "8080",
      EMAILJS_SERVICE_ID: " service_1 ",
      EMAILJS_TEMPLATE_ID: "",
      ENQUIRY_RATE_LIMIT: "0",
      TRUST_PROXY: "1",
      SITE_URL: "https://www.example.in/",
    });
    expect(env.PORT).toBe(8080);
    expect(env.EMAILJS_SERVICE_ID).toBe("service_1");
    expect(env.EMAILJS_TEMPLATE_ID).toBeUndefined();
    expect(env.ENQUIRY_RATE_LIMIT).toBe(0);
    expect(env.TRUST_PROXY).toBe(true);
    expect(env.SITE_URL).toBe("https://www.example.in");
  });

  it("logs one line naming each bad variable and keeps serving with its default", () => {
    const lines: string[] = [];
    const env = parseEnv(
      { ENQUIRY_RATE_LIMIT: "lots", SITE_URL: "not a url", EMAILJS_ORIGIN: "https://api.emailjs.com/" },
      (line) => lines.push(line),
    );
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^config: EMAILJS_ORIGIN=/);
    expect(lines.join("\n")).toMatch(/ENQUIRY_RATE_LIMIT="lots" is invalid/);
    expect(lines.join("\n")).toMatch(/SITE_URL="not a url" is invalid/);
    expect(env.ENQUIRY_RATE_LIMIT).toBe(5);
    expect(env.SITE_URL).toBe("http://localhost:3000");
    expect(env.EMAILJS_ORIGIN).toBe("api.emailjs.com");
  });
});
