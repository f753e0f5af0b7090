import { randomUUID } from "node:crypto";
import { createCookie } from "@remix-run/node";
import type { Notice } from "~/enquiry/notices";

/**
 * The success notice survives the POST/redirect/GET round trip in a short-lived cookie that
 * the next page load reads and clears, so a refresh or a bookmark never repeats it.
 */
const flashCookie = createCookie("enquiry_notice", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60,
});

function secure(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

export async function setSentNotice(request: Request): Promise<string> {
  const notice: Notice = { kind: "sent", id: randomUUID() };
  return flashCookie.serialize(notice, { secure: secure(request) });
}

/** The notice waiting for this visitor, if any, and the header that clears it. */
export async function takeNotice(request: Request): Promise<{ notice: Notice | null; setCookie?: string }> {
  const value: unknown = await flashCookie.parse(request.headers.get("Cookie"));
  if (value === null || value === undefined) return { notice: null };
  const clear = await flashCookie.serialize("", { maxAge: 0, secure: secure(request) });
  return { notice: isSentNotice(value) ? value : null, setCookie: clear };
}

function isSentNotice(value: unknown): value is Notice {
  if (typeof value !== "object" || value === null) return false;
  const { kind, id } = value as Record<string, unknown>;
  return kind === "sent" && typeof id === "string" && id.length <= 64;
}
