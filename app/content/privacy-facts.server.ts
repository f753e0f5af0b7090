/**
 * What the privacy notice and the privacy policy say about the server's configuration, taken from
 * the environment in one place.
 */
import { site } from "~/content/site";
import { type Env, env } from "~/env.server";

/** Who answers questions about personal data for the agency (DPDP Rules, rule 9). */
export interface PrivacyContact {
  /** The person's name, when PRIVACY_CONTACT gives one. */
  name?: string;
  email: string;
}

/**
 * What the privacy notice and the privacy policy say about the server's configuration, read
 * from one place so that the two never disagree: how long leads are kept, and who to write to.
 */
export interface PrivacyFacts {
  /** ENQUIRY_RETENTION_DAYS. */
  retentionDays: number;
  spamRetentionDays: number;
  contact: PrivacyContact;
  /** Whether PRIVACY_CONTACT names the contact (otherwise it is the footer's e-mail address). */
  contactConfigured: boolean;
}

export function privacyFactsFrom(
  config: Pick<Env, "ENQUIRY_RETENTION_DAYS" | "ENQUIRY_SPAM_RETENTION_DAYS" | "PRIVACY_CONTACT">,
): PrivacyFacts {
  const contact = config.PRIVACY_CONTACT ?? { email: site.email };
  return {
    retentionDays: config.ENQUIRY_RETENTION_DAYS,
    spamRetentionDays: config.ENQUIRY_SPAM_RETENTION_DAYS,
    contact,
    contactConfigured: config.PRIVACY_CONTACT !== undefined,
  };
}

/** This server's facts. */
export const privacyFacts: PrivacyFacts = privacyFactsFrom(env);
