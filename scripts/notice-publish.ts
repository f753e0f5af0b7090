/**
 * `npm run notice:publish`: publishes the privacy notice's current texts (app/privacy-notice/en.ts,
 * hi.ts…) as a new version: their canonical texts and SHA-256 added to
 * app/privacy-notice/published.json, and app/privacy-notice/version.ts naming it.
 *
 * Exits 0 when it published, 1 when it refused (nothing changed since the current version, or a
 * published text was edited), each with one line saying so.
 * Usage: vite-node scripts/notice-publish.ts [--folder DIR]   (DIR: a copy of app/privacy-notice/'s archive)
 */
import { join, relative } from "node:path";
import { privacyNoticeTexts } from "~/privacy-notice";
import {
  ARCHIVE_FILE,
  PRIVACY_NOTICE_FOLDER,
  PublishRefusedError,
  publishPrivacyNotice,
  VERSION_FILE,
} from "~/privacy-notice/published.server";

const args = process.argv.slice(2);
if (!(args.length === 0 || (args.length === 2 && args[0] === "--folder"))) {
  console.error("usage: npm run notice:publish [-- --folder DIR]");
  process.exit(2);
}
const folder = args[1] ?? PRIVACY_NOTICE_FOLDER;
/** A file of the archive, from the repository's root when it is in it. */
const shown = (file: string) => {
  const path = join(folder, file);
  const fromRoot = relative(process.cwd(), path);
  return fromRoot.startsWith("..") ? path : fromRoot;
};

try {
  const outcome = publishPrivacyNotice({ texts: privacyNoticeTexts, today: new Date(), folder });
  if (!outcome.published) {
    console.error(
      `privacy notice: nothing to publish: the texts are those of version ${outcome.version} already (edit app/privacy-notice/en.ts or hi.ts first)`,
    );
    process.exit(1);
  }
  console.log(
    `privacy notice: published version ${outcome.version} in ${shown(ARCHIVE_FILE)} and ${shown(VERSION_FILE)}: ${Object.entries(
      outcome.sha256,
    )
      .map(([language, sha256]) => `${language} ${sha256}`)
      .join(", ")}; commit them with the texts`,
  );
} catch (error) {
  if (!(error instanceof PublishRefusedError)) throw error;
  console.error(`privacy notice: cannot publish: ${error.message}`);
  process.exit(1);
}
