/**
 * The archive of every privacy notice the site has published, and publishing a new version into
 * it (`npm run notice:publish`, its only writer).
 *
 * `published.json` holds, by version and language, the canonical text (./text) with the
 * configuration still written `{retentionDays}` and `{privacyContact}`, one line per block, and
 * its SHA-256; `version.ts` names the latest version, the one the page shows. Neither is edited by
 * hand: a changed text is published as a new version beside the old ones, which never change.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { privacyNoticeSha256 } from "./rendering.server";
import { privacyNoticeTemplate } from "./text";
import type { PrivacyNoticeText } from "./types";

/** One published text: its SHA-256, and its lines (joined by `\n`, the text it is the hash of). */
export interface PublishedText {
  sha256: string;
  text: string[];
}

/** Every published version, oldest first, with its text in each language it was shown in. */
export type PublishedArchive = Record<string, Record<string, PublishedText>>;

/** The folder of the archive: this module's own, app/privacy-notice/. */
export const PRIVACY_NOTICE_FOLDER = fileURLToPath(new URL(".", import.meta.url));
export const ARCHIVE_FILE = "published.json";
export const VERSION_FILE = "version.ts";

/** A reason not to publish, said to the maintainer in one line. */
export class PublishRefusedError extends Error {
  override name = "PublishRefusedError";
}

/** The archive in `folder`, read as it is on disk: refused when it is not the shape the command writes. */
export function readPublished(folder = PRIVACY_NOTICE_FOLDER): PublishedArchive {
  const path = join(folder, ARCHIVE_FILE);
  const value: unknown = JSON.parse(readFileSync(path, "utf8"));
  const isText = (text: unknown): text is PublishedText =>
    typeof text === "object" &&
    text !== null &&
    typeof (text as PublishedText).sha256 === "string" &&
    Array.isArray((text as PublishedText).text) &&
    (text as PublishedText).text.every((line) => typeof line === "string");
  const valid =
    typeof value === "object" &&
    value !== null &&
    Object.values(value).every(
      (texts: unknown) => typeof texts === "object" && texts !== null && Object.values(texts).every(isText),
    );
  if (!valid) throw new PublishRefusedError(`${path} is not an archive of published texts`);
  return value as PublishedArchive;
}

/** The published versions, oldest first. */
export function publishedVersions(archive: PublishedArchive): string[] {
  return Object.keys(archive);
}

/** The text of one published version in one language, or undefined when there is none. */
export function publishedPrivacyNotice(
  archive: PublishedArchive,
  version: string,
  language: string,
): string | undefined {
  const texts = Object.hasOwn(archive, version) ? archive[version] : undefined;
  return texts && Object.hasOwn(texts, language) ? texts[language]?.text.join("\n") : undefined;
}

/** The published texts that no longer hash to the SHA-256 recorded beside them: `2026-11-26 hi`. */
export function editedPublishedTexts(archive: PublishedArchive): string[] {
  return Object.entries(archive).flatMap(([version, texts]) =>
    Object.entries(texts)
      .filter(([, { sha256, text }]) => privacyNoticeSha256(text.join("\n")) !== sha256)
      .map(([language]) => `${version} ${language}`),
  );
}

/** The version `version.ts` in `folder` names as the current one. */
export function currentVersionIn(folder = PRIVACY_NOTICE_FOLDER): string | undefined {
  const source = readFileSync(join(folder, VERSION_FILE), "utf8");
  return /PRIVACY_NOTICE_VERSION = "([^"]+)"/.exec(source)?.[1];
}

export type PublishOutcome =
  /** A new version was written, or `version.ts` made to name the latest one again. */
  | { published: true; version: string; sha256: Record<string, string> }
  /** The texts are those of `version`, the current one: nothing was written. */
  | { published: false; version: string };

/**
 * Publishes `texts` as a new version when they differ from the latest published one: their
 * canonical texts and hashes added to the archive, and `version.ts` naming it. The version is
 * the day's date (UTC), `2026-11-28`, then `2026-11-28-2` for a second one that day. Run again,
 * it writes nothing. Refused, and nothing written, when a published text no longer matches its hash.
 */
export function publishPrivacyNotice(options: {
  texts: readonly PrivacyNoticeText[];
  today: Date;
  folder?: string;
}): PublishOutcome {
  const { texts, today, folder = PRIVACY_NOTICE_FOLDER } = options;
  const archive = readPublished(folder);
  const edited = editedPublishedTexts(archive);
  if (edited.length > 0) {
    throw new PublishRefusedError(
      `${join(folder, ARCHIVE_FILE)}: ${edited.join(", ")}: a published text no longer matches its SHA-256 (it was edited: restore it from git; a changed text is a new version)`,
    );
  }
  const current = Object.fromEntries(
    texts.map((text) => {
      const template = privacyNoticeTemplate(text);
      return [text.language, { sha256: privacyNoticeSha256(template), text: template.split("\n") }];
    }),
  );
  const hashes = (published: Record<string, PublishedText>) =>
    Object.fromEntries(Object.entries(published).map(([language, { sha256 }]) => [language, sha256]));
  const latest = publishedVersions(archive).at(-1);
  if (latest !== undefined && sameTexts(archive[latest] ?? {}, current)) {
    if (currentVersionIn(folder) === latest) return { published: false, version: latest };
    writeVersion(folder, latest);
    return { published: true, version: latest, sha256: hashes(current) };
  }
  const version = nextVersion(publishedVersions(archive), today);
  writeAtomically(
    join(folder, ARCHIVE_FILE),
    `${JSON.stringify({ ...archive, [version]: current }, null, 2)}\n`,
  );
  writeVersion(folder, version);
  return { published: true, version, sha256: hashes(current) };
}

function sameTexts(a: Record<string, PublishedText>, b: Record<string, PublishedText>): boolean {
  const languages = Object.keys(a);
  return (
    languages.join() === Object.keys(b).join() &&
    languages.every((language) => a[language]?.sha256 === b[language]?.sha256)
  );
}

/** The day's date, or the latest version's when the clock is behind it, suffixed `-2`, `-3`… when taken. */
function nextVersion(versions: readonly string[], today: Date): string {
  const latestDay = versions.at(-1)?.slice(0, 10) ?? "";
  const todayDay = today.toISOString().slice(0, 10);
  const day = [todayDay, latestDay].sort().at(-1) ?? todayDay;
  let version = day;
  for (let n = 2; versions.includes(version); n++) version = `${day}-${n}`;
  return version;
}

function writeVersion(folder: string, version: string): void {
  writeAtomically(
    join(folder, VERSION_FILE),
    `/** The privacy notice's current version, the latest in published.json: written by \`npm run notice:publish\`. */
export const PRIVACY_NOTICE_VERSION = "${version}";
`,
  );
}

/** Written whole or not at all: a temporary file renamed over the old one. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${randomUUID()}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
