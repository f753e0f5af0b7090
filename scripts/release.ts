// `npm run release [commit]` (HEAD by default): makes a commit a release. It packs its build into
// tests/fixtures/releases/<commit>.tar.gz, makes it the previous release the next one is checked
// against (tests/fixtures/previous-release/: the migrations the archive ships and every statement
// its code sends, recorded by scripts/record-statements.ts in the built checkout), and adds its
// section to CHANGELOG.md. Commit what it wrote; the tests then hold every later migration to it
// (docs/deploying.md, "A release only adds to the schema").
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { git, packRelease, RELEASES_DIR, ROOT } from "./lib/pack-release";
import { archivedMigrations, releaseArchives } from "./lib/release-archive";

const PREVIOUS_RELEASE = join(ROOT, "tests", "fixtures", "previous-release");
const CHANGELOG = join(ROOT, "CHANGELOG.md");

const [commit = "HEAD"] = process.argv.slice(2);
if (commit.startsWith("-")) {
  console.error("usage: npm run release [commit]   (HEAD by default)");
  process.exit(2);
}

/** The recorder and what it imports of scripts/lib/. */
const RECORDER = [
  "scripts/record-statements.ts",
  "scripts/lib/statement-sites.ts",
  "scripts/lib/queries-file.ts",
];
const queries = join(PREVIOUS_RELEASE, "queries.sql");
const packed = packRelease(commit, (checkout) => {
  // A commit from before the recorder is recorded with this checkout's (it fails loudly where
  // that commit's modules differ from what it drives).
  for (const file of RECORDER) {
    if (!existsSync(join(checkout, file))) copyFileSync(join(ROOT, file), join(checkout, file));
  }
  // The release's own code, in its own checkout, sends the statements it records.
  execFileSync("npx", ["vite-node", RECORDER[0] as string, queries], { cwd: checkout, stdio: "inherit" });
});
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
console.log(`${relative(ROOT, packed.archive)}: ${kib(packed.bytes)}`);

// The migrations exactly as the archive ships them.
const migrations = archivedMigrations(packed.archive);
const folder = join(PREVIOUS_RELEASE, "migrations");
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
for (const [file, bytes] of migrations) writeFileSync(join(folder, file), bytes);
console.log(`${relative(ROOT, folder)}: ${[...migrations.keys()].join(", ")}`);

writeFileSync(CHANGELOG, withSection(readChangelog(), section(packed.commit, [...migrations.keys()])));
console.log(`${relative(ROOT, CHANGELOG)}: the section of ${packed.commit}`);
console.log(
  `Commit ${relative(ROOT, packed.archive)}, ${relative(ROOT, PREVIOUS_RELEASE)}/ and CHANGELOG.md; delete an archive no test runs any more (tests/fixtures/releases/README.md).`,
);

function readChangelog(): string {
  return existsSync(CHANGELOG)
    ? readFileSync(CHANGELOG, "utf8")
    : "# Changelog\n\nEach release, newest first, as `npm run release` wrote it: when, which commit, and what changed since the release before.\n";
}

/** The release before `release`: the one of the changelog's newest section, or else the newest archive before it. */
function previousRelease(release: string): string | null {
  const listed = [...readChangelog().matchAll(/^## \S+ · `([0-9a-f]{7,})`/gm)]
    .map((match) => match[1] as string)
    .filter((listedCommit) => listedCommit !== release);
  if (listed[0]) return listed[0];
  const archives = releaseArchives(RELEASES_DIR);
  const at = archives.findIndex((archive) => archive.commit === release);
  return archives[at + 1]?.commit ?? null;
}

/** `git log`'s commits for `args`, oldest first: each short hash and subject. */
function commits(...args: string[]): { hash: string; subject: string }[] {
  return git("log", "--reverse", "--format=%h%x09%s", ...args)
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [hash = "", subject = ""] = line.split("\t");
      return { hash, subject };
    });
}

/** The changelog's section of `release`: its date, its commit, and the commits since the release before. */
function section(release: string, migrationFiles: string[]): string {
  const date = git("log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%d", release);
  const previous = previousRelease(release);
  // The history as it reached main (a merge's subject says what its branch brought), oldest first.
  const range = previous ? [`${previous}..${release}`] : [release];
  const changes = commits("--first-parent", ...range).flatMap(({ hash, subject }) => {
    const merge = /^Merge branch '([^']+)'(?: into \S+)?:?\s*(.*)$/.exec(subject);
    if (!merge) return [`- ${subject} (\`${hash}\`)`];
    if (merge[2]) return [`- ${merge[1]}: ${merge[2]} (\`${hash}\`)`];
    // A merge that says nothing of its own: what its branch brought, commit by commit.
    const brought = commits("--no-merges", `${hash}^1..${hash}^2`);
    return [
      `- ${merge[1]} (\`${hash}\`):`,
      ...brought.slice(0, 8).map((commit) => `  - ${commit.subject} (\`${commit.hash}\`)`),
      ...(brought.length > 8 ? [`  - and ${brought.length - 8} more`] : []),
    ];
  });
  const newest = migrationFiles.at(-1) ?? "none";
  return [
    `## ${date} · \`${release}\``,
    "",
    `Packed as \`tests/fixtures/releases/${release}.tar.gz\`; its newest migration is \`${newest}\`.`,
    "",
    previous ? `Since \`${previous}\`:` : "The first release recorded:",
    "",
    ...(changes.length > 0 ? changes : ["- nothing on main since."]),
    "",
  ].join("\n");
}

/** The changelog with `text` as its newest section (in place of an earlier section of the same commit). */
function withSection(changelog: string, text: string): string {
  const [head = "", ...sections] = changelog.split(/^(?=## )/m);
  const heading = text.split("\n")[0] as string;
  const release = /`([0-9a-f]{7,})`/.exec(heading)?.[1] ?? "";
  const others = sections.filter((existing) => !existing.split("\n")[0]?.includes(`\`${release}\``));
  return `${head.trimEnd()}\n\n${[text, ...others.map((existing) => existing.trimEnd())].join("\n\n")}\n`;
}
