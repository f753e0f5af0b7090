/**
 * The forms the operator's commands (`npm run leads`, `npm run vitals`, `npm run report`) accept. Each command reads
 * its arguments with them and makes its usage line from them, and the tests call every form of
 * every command from them: a form added here is accepted, shown and tested at once.
 */
import { DESTINATIONS } from "~/destinations/lookup.server";
import { LEAD_STATES } from "~/leads/lead";

/**
 * One form of a command: its words, of which the PLACEHOLDERS are filled in by the operator, the
 * switches it also takes, and its options (`--since DATE`: a flag, then its placeholder's value),
 * each at most once, anywhere after its words or between them.
 */
export interface CommandForm {
  readonly words: readonly string[];
  readonly switches?: readonly string[];
  readonly options?: Readonly<Record<string, string>>;
}

/** A word the operator fills in: what it accepts, and an example the tests call the form with. */
interface Placeholder {
  readonly example: string;
  readonly accepts: (value: string) => boolean;
  /** What it takes, for the line that names an option given a value it does not accept. */
  readonly wants?: string;
}

const PLACEHOLDERS: Readonly<Record<string, Placeholder>> = {
  ID: { example: "1767225600000-example", accepts: (value) => value !== "" },
  /** An enquiry's reference (`NRM-7KQ2-M9XD`), or a person's e-mail address or phone number: `find` takes either. */
  "REFERENCE|EMAIL|PHONE": { example: "asha@example.in", accepts: (value) => value !== "" },
  /** A lead's id, or a person's e-mail address or phone number: `erase` takes either. */
  "ID|EMAIL|PHONE": { example: "asha@example.in", accepts: (value) => value !== "" },
  DESTINATION: {
    example: "webhook",
    accepts: (value) => (DESTINATIONS as readonly string[]).includes(value),
    wants: `a destination: ${DESTINATIONS.join(", ")}`,
  },
  /** Days of `--sources`: a whole number from 1 to 3650. */
  N: { example: "7", accepts: (value) => /^[1-9]\d{0,3}$/.test(value) && Number(value) <= 3650 },
  FILE: { example: "report.html", accepts: (value) => value !== "" && !value.startsWith("--") },
  DATE: {
    example: "2026-01-31",
    accepts: isCalendarDate,
    wants: "a calendar date in UTC, YYYY-MM-DD (2026-01-31)",
  },
  /** A day of the campaign counts, in REPORT_TIME_ZONE. */
  DAY: {
    example: "2026-01-31",
    accepts: isCalendarDate,
    wants: "a day in REPORT_TIME_ZONE, YYYY-MM-DD (2026-01-31)",
  },
  STATE: {
    example: "failed",
    accepts: (value) => (LEAD_STATES as readonly string[]).includes(value),
    wants: `a lead's state: ${LEAD_STATES.join(", ")}`,
  },
};

/** `2026-01-31`: a day that exists in the calendar, as YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over into March: only a day that comes back as itself exists.
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    Number.isFinite(time) &&
    new Date(time).toISOString().startsWith(value)
  );
}

export const COMMANDS = {
  leads: {
    list: { words: [], switches: ["--json"], options: { "--state": "STATE" } },
    spam: { words: ["--spam"], switches: ["--json"] },
    csv: { words: ["--csv"], switches: ["--spam"], options: { "--since": "DATE", "--state": "STATE" } },
    sources: { words: ["--sources"] },
    sourcesOver: { words: ["--sources", "--days", "N"] },
    health: { words: ["--health"] },
    // Before `retry ID`, which would take `--failed` for an id.
    retryFailed: { words: ["retry", "--failed"], options: { "--to": "DESTINATION" } },
    retry: { words: ["retry", "ID"], options: { "--to": "DESTINATION" } },
    release: { words: ["release", "ID"] },
    find: { words: ["find", "REFERENCE|EMAIL|PHONE"], switches: ["--json"] },
    erase: { words: ["erase", "ID|EMAIL|PHONE"] },
    withdrawn: { words: ["--withdrawn"], switches: ["--json"] },
    withdrawnDone: { words: ["withdrawn-done", "ID"] },
  },
  vitals: {
    table: { words: [] },
    html: { words: ["--html", "FILE"] },
  },
  report: {
    text: { words: [], options: { "--since": "DAY", "--until": "DAY" } },
    json: { words: ["--json"], options: { "--since": "DAY", "--until": "DAY" } },
    csv: { words: ["--csv"], options: { "--since": "DAY", "--until": "DAY" } },
    html: { words: ["--html", "FILE"], options: { "--since": "DAY", "--until": "DAY" } },
  },
} as const satisfies Record<string, Record<string, CommandForm>>;

export type CommandName = keyof typeof COMMANDS;
export type FormName<Command extends CommandName> = keyof (typeof COMMANDS)[Command] & string;

/** What `args` call: the form, the values of its placeholders in order, the switches and options given. */
export interface Arguments<Command extends CommandName> {
  form: FormName<Command>;
  values: string[];
  switches: ReadonlySet<string>;
  /** Each option given, by its flag: `--since` → `2026-01-31`. */
  options: ReadonlyMap<string, string>;
}

/** The form `args` call, with what they give it; null: none. */
export function readArguments<Command extends CommandName>(
  command: Command,
  args: readonly string[],
): Arguments<Command> | null {
  for (const [form, { words, switches = [], options = {} }] of formsOf(command)) {
    const rest = takeOptions(args, options);
    if (!rest) continue;
    const given = rest.args.filter((arg) => !switches.includes(arg));
    if (given.length !== words.length) continue;
    const values: string[] = [];
    const fits = words.every((word, index) => {
      const value = given[index] ?? "";
      const placeholder = PLACEHOLDERS[word];
      if (!placeholder) return value === word;
      values.push(value);
      return placeholder.accepts(value);
    });
    if (fits) {
      const given = new Set(rest.args.filter((arg) => switches.includes(arg)));
      return { form, values, switches: given, options: rest.options };
    }
  }
  return null;
}

/** `args` without the `options` they give (each flag and its value), and those; null when one is given twice or a value it does not accept. */
function takeOptions(args: readonly string[], options: Readonly<Record<string, string>>) {
  const rest: string[] = [];
  const taken = new Map<string, string>();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    const placeholder = Object.hasOwn(options, arg) ? PLACEHOLDERS[options[arg] ?? ""] : undefined;
    if (!placeholder) {
      rest.push(arg);
      continue;
    }
    const value = args[index + 1];
    if (value === undefined || taken.has(arg) || !placeholder.accepts(value)) return null;
    taken.set(arg, value);
    index += 1;
  }
  return { args: rest, options: taken };
}

/**
 * Why `args` call no form when it is an option's value: `--since takes a calendar date…`; null
 * otherwise (the usage line says the rest).
 */
export function optionProblem(command: CommandName, args: readonly string[]): string | null {
  for (const [, { options = {} }] of formsOf(command)) {
    for (const [flag, word] of Object.entries(options)) {
      const at = args.indexOf(flag);
      const placeholder = PLACEHOLDERS[word];
      if (at === -1 || !placeholder) continue;
      const value = args[at + 1];
      if (value === undefined || !placeholder.accepts(value))
        return `${flag} takes ${placeholder.wants ?? word}`;
    }
  }
  return null;
}

/** `usage: npm run leads [-- --json | -- --spam [--json] | -- --csv [--since DATE] … | …]`. */
export function usageLine(command: CommandName): string {
  const shown = formsOf(command).map(([, { words, switches = [], options = {} }]) => {
    const extras = [...Object.entries(options).map((option) => option.join(" ")), ...switches];
    if (words.length === 0 && extras.length === 0) return undefined;
    // Alone, a form's one switch is the form (`-- --json`); beside words or other extras, each is optional.
    const alone = words.length === 0 && extras.length === 1;
    return ["--", ...words, ...extras.map((extra) => (alone ? extra : `[${extra}]`))].join(" ");
  });
  return `usage: npm run ${command} [${shown.filter((form) => form !== undefined).join(" | ")}]`;
}

/** Every way to call the command: each form with its placeholders' examples, alone and with each switch or option. */
export function everyInvocation(command: CommandName): string[][] {
  return formsOf(command).flatMap(([, { words, switches = [], options = {} }]) => {
    const example = (word: string) => PLACEHOLDERS[word]?.example ?? word;
    const filled = words.map(example);
    return [
      filled,
      ...switches.map((flag) => [...filled, flag]),
      ...Object.entries(options).map(([flag, word]) => [...filled, flag, example(word)]),
    ];
  });
}

function formsOf<Command extends CommandName>(command: Command): [FormName<Command>, CommandForm][] {
  return Object.entries(COMMANDS[command]) as [FormName<Command>, CommandForm][];
}
