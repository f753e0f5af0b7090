/**
 * A provider's own text (EmailJS's answer, a mail server's refusal it passes on) made fit for
 * the log: without e-mail addresses, `<…>` parts (an SMTP address, Slack's `<!channel>` and
 * `<@U…>`), quoted names or `@channel`-style mentions. Only the log keeps it; alerts, events and
 * a lead's last error carry the site's own words (~/mail/failures.server).
 */

/** The most of a provider's text the log keeps. */
export const PROVIDER_TEXT_MAX = 200;

const REDACTIONS: readonly [RegExp, string][] = [
  // Anything in angle brackets: <victim@example.in>, <!channel>, <@U024BE7LH>, <mailto:…|…>.
  [/<[^<>]*>?/g, "[…]"],
  // Quoted text, which a refusal uses for a display name: "Asha Rao", “Asha”, 'Asha'.
  [/"[^"]*"?|“[^”]*”?|‘[^’]*’?|(?<![\p{L}\p{N}])'[^'\n]*'(?![\p{L}\p{N}])/gu, "[…]"],
  // An address left bare, in any script: local@domain.
  [/[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+/gu, "[address]"],
  // A mention a chat would act on: @channel, @here, @everyone, @all.
  [/@(channel|here|everyone|all)\b/gi, "[mention]"],
];

/** `text` cut to PROVIDER_TEXT_MAX characters and without addresses, names in quotes or mentions. */
export function redactProviderText(text: string): string {
  // Cut after redacting, so a cut can never leave half an address unredacted (a first, wide
  // cut bounds the work; what it halves, `<victim@exa` or `"Asha`, the patterns still take).
  const redacted = REDACTIONS.reduce(
    (result, [pattern, by]) => result.replace(pattern, by),
    text.slice(0, PROVIDER_TEXT_MAX * 10),
  );
  return redacted.length > PROVIDER_TEXT_MAX ? `${redacted.slice(0, PROVIDER_TEXT_MAX)}…` : redacted;
}
