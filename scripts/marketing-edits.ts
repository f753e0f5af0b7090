/**
 * `npm run marketing-edits`: makes a marketing person's edits to content/ on a clone of HEAD and
 * commits them there, to show that no such edit fails a test (docs/decisions/051-every-word-is-content.md):
 * a case study with a photo, an article in Hindi, a deleted case study, new phone, e-mail and
 * WhatsApp numbers, the services reordered, a partner renamed, a section's lead rewritten and the
 * cookie policy edited. Then `npm test` in the clone (`--test` runs it) must pass.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { parseDocument } from "yaml";

const USAGE = `usage: npm run marketing-edits [-- [--test] [folder]]

Clones HEAD into folder (a new folder in the temp folder by default), links this checkout's
node_modules into it, makes a marketing person's edits to its content/ and commits them there.
--test then runs npm test in the clone and ends with its exit code.`;

const { values: flags, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: { test: { type: "boolean" }, help: { type: "boolean" } },
  allowPositionals: true,
});
if (flags.help || positionals.length > 1) {
  console.log(USAGE);
  process.exit(flags.help ? 0 : 2);
}

const root = resolve(import.meta.dirname, "..");
const clone = positionals[0] ? resolve(positionals[0]) : mkdtempSync(join(tmpdir(), "marketing-edits-"));
if (existsSync(clone) && readdirSync(clone).length > 0) {
  console.error(`marketing-edits: ${clone} is not empty: name a new or empty folder`);
  process.exit(2);
}

const git = (...args: string[]) =>
  execFileSync("git", ["-c", `safe.directory=${root}`, ...args], { cwd: clone, encoding: "utf8" }).trim();
execFileSync("git", ["-c", `safe.directory=${root}`, "clone", "--quiet", root, clone]);
// Every package linked (as tests/integration/fresh-clone.spec.ts does), but the folders tools
// write into, which stay the clone's own.
mkdirSync(join(clone, "node_modules"));
for (const entry of readdirSync(join(root, "node_modules"))) {
  if (![".cache", ".vite", ".vite-temp"].includes(entry)) {
    symlinkSync(join(root, "node_modules", entry), join(clone, "node_modules", entry));
  }
}

const content = join(clone, "content");
const read = (file: string) => readFileSync(join(content, file), "utf8");
const write = (file: string, text: string) => writeFileSync(join(content, file), text);

/** Changes a YAML file through its document, so its comments and layout stay as they were. */
function editYaml(file: string, change: (document: ReturnType<typeof parseDocument>) => void): void {
  const document = parseDocument(read(file));
  change(document);
  write(file, document.toString({ lineWidth: 0, flowCollectionPadding: false }));
}

/** Replaces `from` in a file, which must hold it. */
function replaceIn(file: string, from: string | RegExp, to: string): void {
  const text = read(file);
  const changed = text.replace(from, to);
  if (changed === text) throw new Error(`marketing-edits: content/${file} has no ${String(from)} to change`);
  write(file, changed);
}

const edits: [string, () => Promise<void> | void][] = [
  [
    "adds a case study with a photo",
    async () => {
      // A 2400 × 1600 photo as a phone takes it: a gradient under fine noise, which compresses as a photo does.
      const width = 2400;
      const height = 1600;
      const pixels = Buffer.alloc(width * height * 3);
      let seed = 11;
      for (let index = 0; index < pixels.length; index += 1) {
        seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
        const pixel = Math.floor(index / 3);
        const shade = ((pixel % width) / width) * 120 + (Math.floor(pixel / width) / height) * 80;
        pixels[index] = Math.max(0, Math.min(255, shade + (index % 3) * 30 + ((seed >> 16) % 40) - 20));
      }
      await sharp(pixels, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 88 })
        .toFile(join(content, "images", "kisan-mandi-market.jpg"));
      write(
        "case-studies/kisan-mandi.md",
        `---
title: "Kisan Mandi: crop prices on a farmer's phone, every morning by seven"
client: Kisan Mandi
sector: Agriculture
summary: >-
  Kisan Mandi sends farmers in Maharashtra the day's crop prices at their nearest markets, on
  any phone, in Marathi and Hindi.
date: 2026-10-08
stack: [React Native, Remix, PostgreSQL]
results:
  - value: 18k
    label: farmers reading prices each morning
  - value: 2.1 s
    label: to open on a budget phone
cover:
  src: images/kisan-mandi-market.jpg
  alt: Farmers comparing onion prices on their phones at a market in Nashik
---
## The problem

Farmers sold at whichever market was nearest, without knowing the prices at the next one.

## What we did

We built an app that shows each morning's prices from the five nearest markets, and works on a
slow connection.
`,
      );
    },
  ],
  [
    "adds an article in Hindi",
    () =>
      write(
        "insights/bajat-phone-par-tez-site.md",
        `---
title: "सस्ते फ़ोन पर भी तेज़ वेबसाइट"
description: >-
  हमारे ज़्यादातर उपयोगकर्ता सस्ते फ़ोन और धीमे नेटवर्क पर हैं। वेबसाइट को उनके लिए तेज़ कैसे
  बनाएँ।
author: Meera Iyer
lang: hi
date: 2026-11-02
---
भारत में ज़्यादातर लोग दस हज़ार रुपये से कम के फ़ोन पर इंटरनेट चलाते हैं। ऐसे फ़ोन पर भारी
वेबसाइट धीरे खुलती है, और लोग इंतज़ार नहीं करते।

## कम जावास्क्रिप्ट भेजिए

जो पन्ना बिना जावास्क्रिप्ट के काम कर सकता है, उसे बिना जावास्क्रिप्ट के भेजिए।

## तस्वीरें छोटी रखिए

हर फ़ोन को उसकी स्क्रीन जितनी बड़ी तस्वीर भेजिए, उससे बड़ी नहीं।
`,
      ),
  ],
  [
    "deletes a case study",
    () => {
      // One the home page does not feature and no article links to.
      const featured = /caseStudy: (\S+)/.exec(read("home.yml"))?.[1];
      const linked = readdirSync(join(content, "insights"))
        .map((file) => read(`insights/${file}`))
        .join("\n");
      const study = readdirSync(join(content, "case-studies"))
        .map((file) => file.replace(/\.md$/, ""))
        .find(
          (slug) => slug !== featured && slug !== "kisan-mandi" && !linked.includes(`/case-studies/${slug}`),
        );
      if (!study) throw new Error("marketing-edits: every case study is featured or linked: none to delete");
      rmSync(join(content, "case-studies", `${study}.md`));
    },
  ],
  [
    "changes the phone, the e-mail and the WhatsApp number",
    () =>
      editYaml("contact.yml", (document) => {
        document.setIn(["email"], "namaste@nirmaan-studio.in");
        document.setIn(["phone", "display"], "+91 80 4100 2300");
        document.setIn(["phone", "e164"], "+918041002300");
        document.setIn(["whatsapp", "display"], "+91 99001 23456");
        document.setIn(["whatsapp", "number"], "919900123456");
      }),
  ],
  [
    "reorders the services (the last first)",
    () => {
      const files = readdirSync(join(content, "services")).map((file) => `services/${file}`);
      const orders = files.map((file) => Number(/^order: (\d+)$/m.exec(read(file))?.[1]));
      const last = Math.max(...orders);
      for (const [index, file] of files.entries()) {
        const order = orders[index] ?? 0;
        replaceIn(file, /^order: \d+$/m, `order: ${order === last ? 1 : order + 1}`);
      }
    },
  ],
  [
    "renames a partner",
    () =>
      editYaml("partners.yml", (document) => {
        const name = String(document.getIn(["partners", 0, "name"]));
        document.setIn(["partners", 0, "name"], `${name} Studios`);
        document.setIn(["partners", 0, "logo", "alt"], `${name} Studios`);
      }),
  ],
  [
    "rewrites a section's lead",
    () =>
      editYaml("home.yml", (document) => {
        document.setIn(
          ["values", "lead"],
          "What we promise every client, from the first call to the thousandth release, in three words.",
        );
      }),
  ],
  [
    "edits the cookie policy",
    () => {
      replaceIn("cookie-policy.md", /^updated: .*$/m, "updated: 2026-12-01");
      replaceIn(
        "cookie-policy.md",
        /\n## /,
        "\nWe read this policy again every December, and whenever the website changes what it stores.\n\n## ",
      );
    },
  ],
];

for (const [what, edit] of edits) {
  await edit();
  console.log(`marketing-edits: ${what}`);
}
git("add", "--all", "content");
git(
  "-c",
  "user.name=Marketing",
  "-c",
  "user.email=marketing@example.in",
  "commit",
  "--quiet",
  "--no-verify",
  "--no-gpg-sign",
  "--message",
  `Content: ${edits.map(([what]) => what).join("; ")}`,
);
console.log(`marketing-edits: committed ${git("rev-parse", "--short", "HEAD")} in ${clone}`);
if (!flags.test) {
  console.log(`marketing-edits: now run: cd ${clone} && npm test`);
  process.exit(0);
}
const run = spawnSync("npm", ["test"], { cwd: clone, stdio: "inherit" });
process.exit(run.status ?? 1);
