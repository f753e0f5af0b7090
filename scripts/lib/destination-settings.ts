/**
 * The rule `npm run check` applies to the destinations (scripts/check-destinations.ts): each
 * setting a registered destination declares is in `.env.example` (as `NAME=`, set or commented
 * out) and named in docs/configuration.md (as `` `NAME` ``).
 */
import type { Destination } from "~/destinations/destination";

/** The two texts a destination's settings must appear in. */
export interface ConfigurationTexts {
  envExample: string;
  configurationDoc: string;
}

/** One line per missing setting: `crm: CRM_API_URL is not in .env.example`; none when all are there. */
export function missingDestinationSettings(
  destinations: readonly Pick<Destination, "name" | "settings">[],
  texts: ConfigurationTexts,
): string[] {
  const faults: string[] = [];
  for (const { name, settings } of destinations) {
    if (settings.length === 0)
      faults.push(`${name}: declares no settings (what does an operator set to use it?)`);
    for (const setting of settings) {
      if (!new RegExp(`^#?\\s*${setting}=`, "m").test(texts.envExample))
        faults.push(`${name}: ${setting} is not in .env.example`);
      if (!texts.configurationDoc.includes(`\`${setting}\``))
        faults.push(`${name}: ${setting} is not in docs/configuration.md`);
    }
  }
  return faults;
}
