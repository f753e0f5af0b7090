/**
 * Ad-click ids, in the order a lead's `click_id` and a visit's click kind name the first present:
 * what an offline conversion upload to the ad platform needs.
 */
export const CLICK_IDS = [
  "gclid",
  "gbraid",
  "wbraid",
  "dclid",
  "msclkid",
  "fbclid",
  "ttclid",
  "twclid",
  "li_fat_id",
] as const;
