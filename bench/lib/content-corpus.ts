/**
 * The content `npm run bench:content` builds: articles and case studies written into a copy's
 * content/, valid against the collections' schemas (app/content/collections/), of realistic
 * length and variety (headings, lists, tables, quotes, highlighted code, links between pages,
 * one article in ten in Hindi), and case studies with photo-like JPEGs of a camera's size, so
 * the build's image work is real. The same counts always give the same files (a seeded random).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";

export interface CorpusOptions {
  articles: number;
  caseStudies: number;
  /** Raster images per case study: the cover and `imagesPerCaseStudy - 1` more. */
  imagesPerCaseStudy: number;
  /** The source photos' size, 2400 × 1600 by default (a portrait one in three is turned). */
  imageWidth?: number;
  imageHeight?: number;
}

export interface Corpus {
  articles: number;
  hindiArticles: number;
  caseStudies: number;
  images: number;
  imageBytes: number;
  /** The longest generated article's words. */
  longestWords: number;
}

/** mulberry32: a small seeded random, so a run can be compared with the next. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, int, pick };
}
type Random = ReturnType<typeof seeded>;

/**
 * The words prose is drawn from, as often as the project's own documents and content use them,
 * so the pages compress as real prose does (a small vocabulary would flatter gzip).
 */
function vocabulary(root: string, folders: string[], pattern: RegExp): string[] {
  const words: string[] = [];
  for (const folder of folders) {
    for (const name of readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })) {
      if (!name.endsWith(".md")) continue;
      const text = readFileSync(join(root, folder, name), "utf8")
        .replace(/^---[\s\S]*?\n---/, "")
        .replace(/`[^`]*`|\([^)]*\)|\[[^\]]*\]/g, " ");
      words.push(...(text.match(pattern) ?? []));
    }
  }
  return words;
}

const ENGLISH = /\b[A-Za-z][a-z]{1,13}\b/g;
const DEVANAGARI = /[\u0900-\u097F]+/g;

/** Extra Hindi words: the repository's own Hindi is one article, too few words alone. */
const HINDI_EXTRA =
  "ग्राहक उत्पाद सेवा डिज़ाइन परीक्षण समय बजट टीम ऐप वेबसाइट उपयोगकर्ता सुरक्षा भुगतान डेटा सर्वर फ़ोन नेटवर्क गति अनुभव योजना सप्ताह महीना लक्ष्य परिणाम सुधार बदलाव निर्णय सवाल जवाब काम लोग कंपनी व्यापार बाज़ार शहर गाँव भाषा हिंदी अंग्रेज़ी पहले बाद हमेशा कभी सबसे ज़्यादा कम अच्छा आसान मुश्किल ज़रूरी".split(
    " ",
  );

const TOPICS = [
  "estimates",
  "budget phones",
  "payments",
  "accessibility",
  "offline-first apps",
  "design systems",
  "hiring engineers",
  "code review",
  "release trains",
  "observability",
  "PostgreSQL",
  "server rendering",
  "React Native",
  "onboarding",
  "search",
  "security reviews",
  "product discovery",
  "technical debt",
  "localisation",
  "analytics",
];
const TITLE_FORMS = [
  (topic: string, n: number) => `What ${n} projects taught us about ${topic}`,
  (topic: string) => `A practical guide to ${topic} for small teams`,
  (topic: string) => `Why ${topic} matters more than your stack`,
  (topic: string, n: number) => `${n} questions to ask before you start on ${topic}`,
  (topic: string) => `How we approach ${topic} on a fixed budget, week by week`,
];
const HINDI_TITLES = [
  "छोटे बजट में बड़ा ऐप: हमारे अनुभव",
  "उपयोगकर्ता की भाषा में उत्पाद बनाइए",
  "हर हफ़्ते दिखाइए, हर हफ़्ते सीखिए",
  "सस्ते फ़ोन के लिए तेज़ वेबसाइट",
  "भुगतान और भरोसा: पहला संस्करण",
];
const AUTHORS = ["Sneha Kulkarni", "Arjun Nair", "Priya Raman", "Farhan Qureshi", "Meera Iyer"];
const SECTORS = ["Healthcare", "Education", "Fintech", "Retail", "Logistics", "Travel", "Agritech"];
const STACK = [
  "TypeScript",
  "React",
  "React Native",
  "Remix",
  "Node.js",
  "PostgreSQL",
  "Redis",
  "Flutter",
  "Kotlin",
  "Swift",
  "Go",
  "Python",
  "AWS",
  "Google Cloud",
  "UPI payments",
  "Razorpay",
  "Elasticsearch",
  "Firebase Cloud Messaging",
];
const CODE: readonly { lang: string; lines: readonly string[] }[] = [
  {
    lang: "ts",
    lines: [
      "export async function retry<T>(attempt: () => Promise<T>, times = 3): Promise<T> {",
      "  for (let tried = 1; ; tried += 1) {",
      "    try {",
      "      return await attempt();",
      "    } catch (error) {",
      "      if (tried >= times) throw error;",
      "      await new Promise((resolve) => setTimeout(resolve, 2 ** tried * 100));",
      "    }",
      "  }",
      "}",
    ],
  },
  {
    lang: "sql",
    lines: [
      "SELECT clinic_id, count(*) FILTER (WHERE status = 'missed') AS missed,",
      "       count(*) AS booked",
      "  FROM appointments",
      " WHERE starts_at >= now() - interval '30 days'",
      " GROUP BY clinic_id",
      " ORDER BY missed DESC;",
    ],
  },
  {
    lang: "bash",
    lines: [
      "npm ci",
      "npm run build",
      'docker build -t shop:"$(git rev-parse --short HEAD)" .',
      'docker push registry.example.com/shop:"$(git rev-parse --short HEAD)"',
    ],
  },
  {
    lang: "json",
    lines: [
      "{",
      '  "orderId": "A-10482",',
      '  "amount": { "value": 149900, "currency": "INR" },',
      '  "status": "captured",',
      '  "retries": 0',
      "}",
    ],
  },
  {
    lang: "yaml",
    lines: [
      "services:",
      "  web:",
      "    image: registry.example.com/shop:latest",
      "    ports: ['127.0.0.1:3000:3000']",
      "    environment:",
      "      DATABASE_URL: postgres://shop@db/shop",
    ],
  },
];

function prose(random: Random, words: readonly string[], count: number, stop = "."): string {
  const sentences: string[] = [];
  let left = count;
  while (left > 0) {
    const length = Math.min(left, random.int(8, 24));
    const sentence = Array.from({ length }, () => random.pick(words));
    const first = sentence[0] ?? "";
    sentence[0] = first.charAt(0).toUpperCase() + first.slice(1);
    if (length > 12) sentence[random.int(4, length - 4)] += ",";
    sentences.push(sentence.join(" ") + stop);
    left -= length;
  }
  return sentences.join(" ");
}

/** A Markdown body of about `target` words: sections of paragraphs, lists, a table, quotes and code. */
function body(random: Random, words: readonly string[], target: number, links: readonly string[]): string {
  const stop = /[\u0900-\u097F]/.test(words[0] ?? "") ? "।" : ".";
  const blocks: string[] = [];
  let written = 0;
  let section = 0;
  while (written < target) {
    if (written > 0 && random.next() < 0.35) {
      section += 1;
      blocks.push(`## ${prose(random, words, random.int(3, 7), "").replace(/,/g, "")}`);
    }
    const kind = random.next();
    if (kind < 0.12) {
      const ordered = random.next() < 0.4;
      const items = Array.from(
        { length: random.int(3, 6) },
        (_, index) =>
          `${ordered ? `${index + 1}.` : "-"} **${random.pick(words)}** ${prose(random, words, random.int(8, 20), stop)}`,
      );
      blocks.push(items.join("\n"));
      written += items.length * 14;
    } else if (kind < 0.18) {
      const code = random.pick(CODE);
      blocks.push(`\`\`\`${code.lang}\n${code.lines.join("\n")}\n\`\`\``);
      written += code.lines.length * 5;
    } else if (kind < 0.21) {
      const rows = Array.from(
        { length: random.int(3, 5) },
        () => `| ${random.pick(words)} | ${random.int(2, 95)}% | ${prose(random, words, 5, "")} |`,
      );
      blocks.push(["| what | share | note |", "|---|---|---|", ...rows].join("\n"));
      written += rows.length * 8;
    } else if (kind < 0.24) {
      blocks.push(`> ${prose(random, words, random.int(15, 35), stop)}`);
      written += 25;
    } else {
      const length = random.int(40, 110);
      let paragraph = prose(random, words, length, stop);
      if (random.next() < 0.3 && links.length > 0) {
        paragraph += ` [${prose(random, words, 3, "")}](${random.pick(links)})`;
      }
      if (random.next() < 0.2)
        paragraph += ` Use \`${random.pick(["npm run build", "retry()", "INR", "p99"])}\`.`;
      blocks.push(paragraph);
      written += length;
    }
    if (section > 0 && random.next() < 0.1)
      blocks.push(`### ${prose(random, words, 4, "").replace(/,/g, "")}`);
  }
  return `${blocks.join("\n\n")}\n\n[Tell us about your project](/#contact).\n`;
}

const yamlString = (value: string) => JSON.stringify(value);
const dateOf = (random: Random) =>
  new Date(Date.UTC(2023, 0, 1) + random.int(0, 1050) * 86_400_000).toISOString().slice(0, 10);
const slugOf = (title: string, index: number) =>
  `${title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 50)
    .replace(/-$/, "")}-${index + 1}`.replace(/^-/, "insight-");

/** A camera's grain, one per size: made once, as generating noise costs more than the photo. */
const grains = new Map<string, Promise<Buffer>>();
function grain(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  let made = grains.get(key);
  if (!made) {
    made = sharp({
      create: {
        width,
        height,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 18 },
      },
    })
      .raw()
      .toBuffer();
    grains.set(key, made);
  }
  return made;
}

/** A photo-like JPEG: soft colour fields (a small random image enlarged) under a camera's grain. */
async function photo(random: Random, width: number, height: number): Promise<Buffer> {
  const small = Buffer.from(Array.from({ length: 12 * 8 * 3 }, () => random.int(20, 235)));
  return sharp(small, { raw: { width: 12, height: 8, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .composite([{ input: await grain(width, height), raw: { width, height, channels: 3 }, blend: "overlay" }])
    .jpeg({ quality: 86 })
    .toBuffer();
}

/** Writes the corpus into `<root>/content/` beside what is there, and says what it wrote. */
export async function writeCorpus(root: string, options: CorpusOptions): Promise<Corpus> {
  const random = seeded(40 + options.articles * 7 + options.caseStudies);
  const english = vocabulary(root, ["docs", "content"], ENGLISH);
  const hindi = [...vocabulary(root, ["content"], DEVANAGARI), ...HINDI_EXTRA];
  const content = join(root, "content");
  const articles = Array.from({ length: options.articles }, (_, index) => {
    const hi = index % 10 === 3;
    const title = hi
      ? `${random.pick(HINDI_TITLES)} (${index + 1})`
      : random.pick(TITLE_FORMS)(random.pick(TOPICS), random.int(3, 40));
    return { hi, title, slug: hi ? `lekh-${index + 1}` : slugOf(title, index) };
  });
  const studies = Array.from({ length: options.caseStudies }, (_, index) => {
    const client = `${random.pick(["Asha", "Setu", "Nila", "Kiran", "Tara", "Veda"])}${random.pick(["Care", "Pay", "Mart", "Learn", "Move", "Farm"])}`;
    return { client, slug: slugOf(client, index) };
  });
  const links = [
    ...articles.map((article) => `/insights/${article.slug}`),
    ...studies.map((study) => `/case-studies/${study.slug}`),
    "/case-studies",
    "/insights",
  ];
  let longestWords = 0;
  for (const [index, article] of articles.entries()) {
    // Most articles are 500 to 1,200 words; one in four is longer, one in twenty a long read.
    const roll = random.next();
    const target =
      roll < 0.05 ? random.int(2500, 4500) : roll < 0.3 ? random.int(1200, 2500) : random.int(500, 1200);
    longestWords = Math.max(longestWords, target);
    const words = article.hi ? hindi : english;
    const date = dateOf(random);
    const front = [
      "---",
      `title: ${yamlString(article.title)}`,
      `description: ${yamlString(prose(random, words, random.int(18, 34), article.hi ? "।" : ".").slice(0, 290))}`,
      `author: ${random.pick(AUTHORS)}`,
      ...(article.hi ? ["lang: hi"] : []),
      `date: ${date}`,
      ...(index % 4 === 0 ? [`updated: ${date > "2025-06-01" ? date : "2025-06-01"}`] : []),
      ...(index % 25 === 0 ? [`redirect_from: [old-${article.slug}]`] : []),
      ...(index % 8 === 0
        ? [
            `seo:`,
            `  title: ${yamlString(article.title.slice(0, 60))}`,
            `  description: ${yamlString(prose(random, words, 12).slice(0, 160))}`,
          ]
        : []),
      "---",
    ];
    writeFileSync(
      join(content, "insights", `${article.slug}.md`),
      `${front.join("\n")}\n${body(random, words, target, links)}`,
    );
  }
  const width = options.imageWidth ?? 2400;
  const height = options.imageHeight ?? 1600;
  let images = 0;
  let imageBytes = 0;
  for (const study of studies) {
    const names: string[] = [];
    for (let n = 0; n < options.imagesPerCaseStudy; n += 1) {
      const portrait = n % 3 === 2;
      const bytes = await photo(random, portrait ? height : width, portrait ? width : height);
      const name = `${study.slug}-${n + 1}.jpg`;
      writeFileSync(join(content, "images", name), bytes);
      names.push(name);
      images += 1;
      imageBytes += bytes.length;
    }
    const image = (name: string, indent: string) => [
      `${indent}src: images/${name}`,
      `${indent}alt: ${yamlString(prose(random, english, random.int(8, 16)).slice(0, 240))}`,
    ];
    const [cover, ...more] = names;
    const results = Array.from({ length: random.int(1, 4) }, () => [
      `  - value: ${yamlString(random.pick([`${random.int(2, 95)}%`, `${random.int(2, 90)}k`, `−${random.int(5, 60)}%`, `${random.int(2, 12)}×`]))}`,
      `    label: ${yamlString(prose(random, english, random.int(3, 7), "").slice(0, 60))}`,
    ]);
    const front = [
      "---",
      `title: ${yamlString(`${study.client}: ${prose(random, english, random.int(5, 9), "")}`.slice(0, 90))}`,
      `client: ${yamlString(study.client)}`,
      `sector: ${random.pick(SECTORS)}`,
      `summary: ${yamlString(prose(random, english, random.int(20, 40)).slice(0, 300))}`,
      `date: ${dateOf(random)}`,
      `stack: ${JSON.stringify([...STACK].sort(() => random.next() - 0.5).slice(0, random.int(3, 8)))}`,
      "results:",
      ...results.flat(),
      ...(random.next() < 0.7
        ? [
            "quote:",
            `  text: ${yamlString(prose(random, english, random.int(20, 50)).slice(0, 400))}`,
            `  author: ${random.pick(AUTHORS)}`,
            `  role: ${yamlString(`Head of product, ${study.client}`)}`,
          ]
        : []),
      ...(cover ? ["cover:", ...image(cover, "  ")] : []),
      ...(more.length > 0
        ? [
            "images:",
            ...more.flatMap((name) => image(name, "    ").map((line) => line.replace(/^ {4}src/, "  - src"))),
          ]
        : []),
      "---",
    ];
    const text = [
      "## The problem",
      body(random, english, random.int(150, 350), links).replace(/\n\n\[Tell us[^\n]*\n$/, ""),
      "## What we did",
      body(random, english, random.int(200, 500), links).replace(/\n\n\[Tell us[^\n]*\n$/, ""),
      "## What changed",
      body(random, english, random.int(80, 200), links),
    ];
    writeFileSync(
      join(content, "case-studies", `${study.slug}.md`),
      `${front.join("\n")}\n${text.join("\n\n")}`,
    );
  }
  return {
    articles: articles.length,
    hindiArticles: articles.filter((article) => article.hi).length,
    caseStudies: studies.length,
    images,
    imageBytes,
    longestWords,
  };
}
