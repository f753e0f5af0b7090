import * as z from "zod";

/**
 * Every environment variable the server reads, validated once at start-up. A bad value
 * logs one line naming the variable and falls back to its default, so the site still serves.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const flag = z.enum(["0", "1", "true", "false"]).transform((value) => value === "1" || value === "true");

const schema = {
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  EMAILJS_SERVICE_ID: optionalText,
  EMAILJS_TEMPLATE_ID: optionalText,
  EMAILJS_PUBLIC_KEY: optionalText,
  EMAILJS_PRIVATE_KEY: optionalText,
  EMAILJS_ORIGIN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]+$/, "must be a host name, without scheme, port or path")
    .default("api.emailjs.com"),
  ENQUIRY_OUTBOX: z.string().trim().min(1).default("./data/enquiries.jsonl"),
  ENQUIRY_RATE_LIMIT: z.coerce.number().int().min(0).default(5),
  ENQUIRY_RATE_WINDOW: z.coerce.number().int().min(1).default(600),
  ENQUIRY_STORE_DIR: z.string().trim().min(1).default("./data"),
  VITALS_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
  VITALS_RATE_WINDOW: z.coerce.number().int().min(1).default(600),
  VITALS_MAX_MB: z.coerce.number().min(0.01).max(1024).default(10),
  TRUST_PROXY: flag.default(false),
  SITE_URL: z
    .url({ protocol: /^https?$/ })
    .transform((value) => value.replace(/\/+$/, ""))
    .default("http://localhost:3000"),
} satisfies Record<string, z.ZodType>;

type Schema = typeof schema;
export type Env = { [K in keyof Schema]: z.output<Schema[K]> };

export function parseEnv(
  source: Record<string, string | undefined>,
  log: (line: string) => void = console.error,
): Env {
  const env: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema) as [keyof Schema, z.ZodType][]) {
    const raw = source[name];
    const result = field.safeParse(raw === undefined || raw.trim() === "" ? undefined : raw);
    if (result.success) {
      env[name] = result.data;
    } else {
      const reason = result.error.issues[0]?.message ?? "invalid value";
      log(`config: ${name}=${JSON.stringify(raw)} is invalid (${reason}); using the default instead`);
      env[name] = field.parse(undefined);
    }
  }
  return env as Env;
}

export const env: Env = parseEnv(process.env);
