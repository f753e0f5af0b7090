import { describe, expect, it } from "vitest";
import { PROVIDER_TEXT_MAX, redactProviderText } from "~/mail/redact";

describe("a provider's text as the log keeps it", () => {
  it.each([
    ["an address in angle brackets", "550 <victim@example.in> unknown", "550 […] unknown"],
    ["a bare address", "no mailbox victim.person+x@mail.example.in here", "no mailbox [address] here"],
    ["an address in another script", "रोका गया: आशा@उदाहरण.भारत", "रोका गया: [address]"],
    ["a quoted display name", 'rejected "Asha Rao" <asha@example.in>', "rejected […] […]"],
    ["typographic and single quotes", "to “Asha Rao” and 'Meera Iyer' now", "to […] and […] now"],
    ["an apostrophe inside a word", "can't deliver: mailbox's full", "can't deliver: mailbox's full"],
    [
      "Slack's control sequences",
      "hi <!channel> <!here|here> <@U024BE7LH> <#C123|general>",
      "hi […] […] […] […]",
    ],
    ["a link in Slack's form", "see <https://evil.example|click>", "see […]"],
    ["plain mentions", "@channel @here @everyone @all", "[mention] [mention] [mention] [mention]"],
    ["an unclosed bracket or quote at a cut", "x <victim@exa", "x […]"],
    ["plain words", "Service Unavailable", "Service Unavailable"],
  ])("takes out %s", (_, text, kept) => {
    expect(redactProviderText(text)).toBe(kept);
  });

  it(`keeps at most ${PROVIDER_TEXT_MAX} characters, cut after redacting so no address is halved`, () => {
    const text = `${"a".repeat(PROVIDER_TEXT_MAX - 5)} victim@example.in ${"b".repeat(5_000)}`;
    const kept = redactProviderText(text);
    expect(kept).toHaveLength(PROVIDER_TEXT_MAX + 1);
    expect(kept.endsWith("…")).toBe(true);
    expect(kept).not.toMatch(/victim|example/);
  });
});
