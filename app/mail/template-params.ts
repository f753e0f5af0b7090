/** The parameters the EmailJS template receives for one lead. */
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";
import { clickIdOf, describeSource, type LeadSource } from "~/lead-parts/source";
import { describePrivacyNotice, type PrivacyNoticeRecord } from "~/privacy-notice/record";

/**
 * The EmailJS template parameters: the enquiry's fields, `to_name` and `from_name`
 * (docs/decisions/002-operating-contract.md),
 * and where the lead came from: `source` (`google / cpc / spring-launch`, `linkedin.com (referral)`,
 * `direct`) and `click_id` (`gclid=…`, or empty), and the privacy notice its sender was shown:
 * `privacy_notice_version` (`2026-11-26`) and `privacy_notice_language` (`hi`), each empty when not
 * known, and `notice_version`, both in one (`2026-11-26 hi`), for templates made before them.
 * And the enquiry's `reference` (`NRM-7KQ2-M9XD`, the one its sender was shown: a subject or an
 * auto-reply can quote it).
 */
export type TemplateParams = Enquiry & {
  to_name: string;
  from_name: string;
  source: string;
  click_id: string;
  privacy_notice_version: string;
  privacy_notice_language: string;
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
    privacy_notice_version: privacyNotice?.version ?? "",
    privacy_notice_language: privacyNotice?.language ?? "",
    notice_version: describePrivacyNotice(privacyNotice),
    reference,
  };
}
