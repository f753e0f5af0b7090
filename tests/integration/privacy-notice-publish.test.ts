/** npm run notice:publish: a new version of the privacy notice written once from its texts, on a copy of the archive, and the command's exit code and line. */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { PRIVACY_NOTICE_VERSION, type PrivacyNoticeText, privacyNoticeTexts } from "~/privacy-notice";
import { privacyNoticeEnglish } from "~/privacy-notice/en";
import { privacyNoticeHindi } from "~/privacy-notice/hi";
import {
  ARCHIVE_FILE,
  currentVersionIn,
  PRIVACY_NOTICE_FOLDER,
  PublishRefusedError,
  publishedPrivacyNotice,
  publishedVersions,
  publishPrivacyNotice,
  readPublished,
  VERSION_FILE,
} from "~/privacy-notice/published.server";
import { privacyNoticeSha256 } from "~/privacy-notice/rendering.server";
import { privacyNoticeTemplate } from "~/privacy-notice/text";

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** A copy of app/privacy-notice/'s archive and version.ts, which publishing may write. */
function copyOfTheArchive(): string {
  folder = mkdtempSync(join(tmpdir(), "privacy-notice-"));
  for (const file of [ARCHIVE_FILE, VERSION_FILE]) {
    copyFileSync(join(PRIVACY_NOTICE_FOLDER, file), join(folder, file));
  }
  return folder;
}

/** The archive's two files, byte for byte. */
const filesIn = (dir: string) => [ARCHIVE_FILE, VERSION_FILE].map((file) => readFileSync(join(dir, file)));

/** The day `days` after the current version's (a version is named by its day, `2026-11-26` or `2026-11-26-2`). */
function dayAfterCurrent(days: number): string {
  const current = Date.parse(`${PRIVACY_NOTICE_VERSION.slice(0, 10)}T00:00:00Z`);
  return new Date(current + days * 24 * 60 * 60_000).toISOString().slice(0, 10);
}

/** The Hindi notice with one item reworded. */
const rewordedHindi: PrivacyNoticeText = {
  ...privacyNoticeHindi,
  items: { ...privacyNoticeHindi.items, purpose: { label: "किसलिए", text: "आपकी पूछताछ का जवाब देने के लिए।" } },
};

describe("publishPrivacyNotice, on a copy of the archive", () => {
  it("publishes nothing while the texts are those of the current version, and writes nothing", () => {
    const dir = copyOfTheArchive();
    const before = filesIn(dir);
    expect(
      publishPrivacyNotice({ texts: privacyNoticeTexts, today: new Date("2026-11-28"), folder: dir }),
    ).toEqual({ published: false, version: PRIVACY_NOTICE_VERSION });
    expect(filesIn(dir)).toEqual(before);
  });

  it("publishes a changed text as the day's version beside the old ones, once: run again, it writes nothing", () => {
    const dir = copyOfTheArchive();
    const old = readPublished(dir);
    const texts = [privacyNoticeEnglish, rewordedHindi];
    const day = dayAfterCurrent(1);
    const outcome = publishPrivacyNotice({ texts, today: new Date(`${day}T23:30:00Z`), folder: dir });
    const sha256 = Object.fromEntries(
      texts.map((text) => [text.language, privacyNoticeSha256(privacyNoticeTemplate(text))]),
    );
    expect(outcome).toEqual({ published: true, version: day, sha256 });

    const archive = readPublished(dir);
    expect(publishedVersions(archive)).toEqual([...publishedVersions(old), day]);
    for (const version of publishedVersions(old)) expect(archive[version]).toEqual(old[version]);
    expect(publishedPrivacyNotice(archive, day, "hi")).toBe(privacyNoticeTemplate(rewordedHindi));
    expect(publishedPrivacyNotice(archive, day, "hi")).toContain("किसलिए: आपकी पूछताछ का जवाब देने के लिए।");
    expect(publishedPrivacyNotice(archive, day, "en")).toBe(
      publishedPrivacyNotice(archive, PRIVACY_NOTICE_VERSION, "en"),
    );
    expect(archive[day]?.hi?.sha256).not.toBe(archive[PRIVACY_NOTICE_VERSION]?.hi?.sha256);
    expect(currentVersionIn(dir)).toBe(day);

    const after = filesIn(dir);
    expect(publishPrivacyNotice({ texts, today: new Date(dayAfterCurrent(2)), folder: dir })).toEqual({
      published: false,
      version: day,
    });
    expect(filesIn(dir)).toEqual(after);
  });

  it("names a second version of the same day `-2`, and never dates one before the latest", () => {
    const dir = copyOfTheArchive();
    const day = dayAfterCurrent(2);
    const today = new Date(day);
    publishPrivacyNotice({ texts: [privacyNoticeEnglish, rewordedHindi], today, folder: dir });
    expect(publishPrivacyNotice({ texts: privacyNoticeTexts, today, folder: dir }).version).toBe(`${day}-2`);
    const behind = new Date(dayAfterCurrent(1));
    expect(
      publishPrivacyNotice({ texts: [privacyNoticeEnglish, rewordedHindi], today: behind, folder: dir })
        .version,
    ).toBe(`${day}-3`);
    expect(publishedVersions(readPublished(dir)).slice(-3)).toEqual([day, `${day}-2`, `${day}-3`]);
  });

  it("refuses, writing nothing, when a published text was edited", () => {
    const dir = copyOfTheArchive();
    const path = join(dir, ARCHIVE_FILE);
    // The first version that says it, the oldest (the archive lists them oldest first).
    const edited = publishedVersions(readPublished(dir)).find((version) =>
      publishedPrivacyNotice(readPublished(dir), version, "en")?.includes("Who receives it: our team"),
    );
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace("Who receives it: our team", "Who receives it: the team"),
    );
    const before = filesIn(dir);
    const publish = () =>
      publishPrivacyNotice({ texts: [privacyNoticeEnglish, rewordedHindi], today: new Date(), folder: dir });
    expect(publish).toThrow(PublishRefusedError);
    expect(publish).toThrow(`${path}: ${edited} en: a published text no longer matches its SHA-256`);
    expect(filesIn(dir)).toEqual(before);
  });

  it("makes version.ts name the latest version again when only it was left behind", () => {
    const dir = copyOfTheArchive();
    writeFileSync(join(dir, VERSION_FILE), 'export const PRIVACY_NOTICE_VERSION = "2020-01-01";\n');
    expect(publishPrivacyNotice({ texts: privacyNoticeTexts, today: new Date(), folder: dir })).toMatchObject(
      {
        published: true,
        version: PRIVACY_NOTICE_VERSION,
      },
    );
    expect(readFileSync(join(dir, VERSION_FILE))).toEqual(
      readFileSync(join(PRIVACY_NOTICE_FOLDER, VERSION_FILE)),
    );
  });
});

describe("npm run notice:publish", () => {
  const script = join(process.cwd(), "node_modules", ".bin", "vite-node");
  const run = (dir: string) =>
    promisify(execFile)(script, ["scripts/notice-publish.ts", "--folder", dir], { cwd: process.cwd() }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );

  it("publishes the current texts into an archive without them (exit 0), then refuses (exit 1), saying why in one line", async () => {
    folder = mkdtempSync(join(tmpdir(), "privacy-notice-"));
    writeFileSync(join(folder, ARCHIVE_FILE), "{}\n");
    writeFileSync(join(folder, VERSION_FILE), 'export const PRIVACY_NOTICE_VERSION = "none";\n');

    const published = await run(folder);
    const version = currentVersionIn(folder) ?? "";
    expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const archived = readPublished(folder)[version];
    expect(published).toEqual({
      code: 0,
      stdout: `privacy notice: published version ${version} in ${join(folder, ARCHIVE_FILE)} and ${join(folder, VERSION_FILE)}: en ${archived?.en?.sha256}, hi ${archived?.hi?.sha256}; commit them with the texts\n`,
      stderr: "",
    });
    // The texts of today's page, hashed by what the command wrote: those the test of the real archive holds.
    expect(archived).toEqual(readPublished()[PRIVACY_NOTICE_VERSION]);

    const before = filesIn(folder);
    expect(await run(folder)).toEqual({
      code: 1,
      stdout: "",
      stderr: `privacy notice: nothing to publish: the texts are those of version ${version} already (edit app/privacy-notice/en.ts or hi.ts first)\n`,
    });
    expect(filesIn(folder)).toEqual(before);
  }, 60_000);

  it("refuses on a copy of the site's archive, whose latest version is today's texts, and leaves it as it was", async () => {
    const dir = copyOfTheArchive();
    const before = filesIn(dir);
    const refused = await run(dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `privacy notice: nothing to publish: the texts are those of version ${PRIVACY_NOTICE_VERSION} already (edit app/privacy-notice/en.ts or hi.ts first)\n`,
    );
    expect(filesIn(dir)).toEqual(before);
  }, 60_000);
});
