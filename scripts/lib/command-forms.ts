// The forms the operator's commands (`npm run leads`, `npm run vitals`) accept. Each command reads
// its arguments with them and makes its usage line from them, and the tests call every form of
// every command from them: a form added here is accepted, shown and tested at once.

/**
 * One form of a command: its words, of which the PLACEHOLDERS are filled in by the operator, and
 * the switches it also takes, anywhere after its words or between them.
 */
export interface CommandForm {
  readonly words: readonly string[];
  readonly switches?: readonly string[];
}

/** A word the operator fills in: what it accepts, and an example the tests call the form with. */
interface Placeholder {
  readonly example: string;
  readonly accepts: (value: string) => boolean;
}

const PLACEHOLDERS: Readonly<Record<string, Placeholder>> = {
  ID: { example: "1767225600000-example", accepts: (value) => value !== "" },
  "EMAIL|PHONE": { example: "asha@example.in", accepts: (value) => value !== "" },
  /** Days of `--sources`: a whole number from 1 to 3650. */
  N: { example: "7", accepts: (value) => /^[1-9]\d{0,3}$/.test(value) && Number(value) <= 3650 },
  FILE: { example: "report.html", accepts: (value) => value !== "" && !value.startsWith("--") },
};

export const COMMANDS = {
  leads: {
    list: { words: [], switches: ["--json"] },
    spam: { words: ["--spam"], switches: ["--json"] },
    sources: { words: ["--sources"] },
    sourcesOver: { words: ["--sources", "--days", "N"] },
    health: { words: ["--health"] },
    // Before `retry ID`, which would take `--failed` for an id.
    retryFailed: { words: ["retry", "--failed"] },
    retry: { words: ["retry", "ID"] },
    release: { words: ["release", "ID"] },
    find: { words: ["find", "EMAIL|PHONE"], switches: ["--json"] },
    erase: { words: ["erase", "EMAIL|PHONE"] },
  },
  vitals: {
    table: { words: [] },
    html: { words: ["--html", "FILE"] },
  },
} as const satisfies Record<string, Record<string, CommandForm>>;

export type CommandName = keyof typeof COMMANDS;
export type FormName<Command extends CommandName> = keyof (typeof COMMANDS)[Command] & string;

/** The form `args` call, the values of its placeholders in order, the switches given; null: none. */
export function readArguments<Command extends CommandName>(
  command: Command,
  args: readonly string[],
): { form: FormName<Command>; values: string[]; switches: ReadonlySet<string> } | null {
  for (const [form, { words, switches = [] }] of formsOf(command)) {
    const given = args.filter((arg) => !switches.includes(arg));
    if (given.length !== words.length) continue;
    const values: string[] = [];
    const fits = words.every((word, index) => {
      const value = given[index] ?? "";
      const placeholder = PLACEHOLDERS[word];
      if (!placeholder) return value === word;
      values.push(value);
      return placeholder.accepts(value);
    });
    if (fits) return { form, values, switches: new Set(args.filter((arg) => switches.includes(arg))) };
  }
  return null;
}

/** `usage: npm run leads [-- --json | -- --spam [--json] | …]`. */
export function usageLine(command: CommandName): string {
  const shown = formsOf(command).map(([, { words, switches = [] }]) =>
    words.length === 0 && switches.length === 0
      ? undefined
      : ["--", ...words, ...switches.map((flag) => (words.length === 0 ? flag : `[${flag}]`))].join(" "),
  );
  return `usage: npm run ${command} [${shown.filter((form) => form !== undefined).join(" | ")}]`;
}

/** Every way to call the command: each form with its placeholders' examples, alone and with each switch. */
export function everyInvocation(command: CommandName): string[][] {
  return formsOf(command).flatMap(([, { words, switches = [] }]) => {
    const filled = words.map((word) => PLACEHOLDERS[word]?.example ?? word);
    return [filled, ...switches.map((flag) => [...filled, flag])];
  });
}

function formsOf<Command extends CommandName>(command: Command): [FormName<Command>, CommandForm][] {
  return Object.entries(COMMANDS[command]) as [FormName<Command>, CommandForm][];
}
