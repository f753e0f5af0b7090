/** The parameters the EmailJS template receives for one lead. */
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";
import { describePrivacyNotice, type PrivacyNoticeRecord } from "~/lead-parts/privacy-notice";
import { clickIdOf, describeSource, type LeadSource } from "~/lead-parts/source";

/**
 * The EmailJS template parameters: the enquiry's fields, `to_name` and `from_name`
 * (docs/decisions/002-operating-contract.md),
 * and where the lead came from: `source` (`google / cpc / spring-launch`, `linkedin.com (referral)`,
 * `direct`) and `click_id` (`gclid=…`, or empty), and the privacy notice its sender was shown:
 * `notice_version` (its version and language, `2026-11-26 hi`, or empty when not known), and the
 * enquiry's `reference` (`NRM-7KQ2-M9XD`, the one its sender was shown: a subject or an
 * auto-reply can quote it).
 */
export type TemplateParams = Enquiry & {
  to_name: string;
  from_name: string;
  source: string;
  click_id: string;
  notice_version: string;
  reference: string;
};

export function toTemplateParams(
  enquiry: Enquiry,
  recipient: string,
  source?: LeadSource,
  privacyNotice?: PrivacyNoticeRecord,
  reference = "",
): TemplateParams {
  const fields = Object.fromEntries(ENQUIRY_FIELDS.map((field) => [field, enquiry[field]])) as Enquiry;
  return {
    to_name: recipient,
    ...fields,
    from_name: enquiry.name,
    source: describeSource(source),
    click_id: clickIdOf(source),
    notice_version: describePrivacyNotice(privacyNotice),
    reference,
  };
}
