import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { describeCause, type MailTransport, toTemplateParams } from "~/mail/types";

/**
 * The embedded transport, like Django's file e-mail backend: one JSON object per line.
 * Appends are serialised in-process and each line is written by one appendFile call, so
 * concurrent enquiries never interleave or lose a line.
 */
export function createOutboxTransport(options: {
  path: string;
  recipient: string;
  now?: () => Date;
}): MailTransport {
  const { path, recipient, now = () => new Date() } = options;
  let queue: Promise<unknown> = Promise.resolve();
  let folder: Promise<unknown> | undefined;

  return {
    name: "outbox",
    async send(enquiry) {
      const line = `${JSON.stringify({ receivedAt: now().toISOString(), ...toTemplateParams(enquiry, recipient) })}\n`;
      const write = queue.then(async () => {
        folder ??= mkdir(dirname(path), { recursive: true });
        await folder;
        await appendFile(path, line, "utf8");
      });
      queue = write.catch(() => undefined);
      try {
        await write;
        return { ok: true };
      } catch (cause) {
        folder = undefined;
        return { ok: false, reason: "write-failed", detail: describeCause(cause) };
      }
    },
  };
}
