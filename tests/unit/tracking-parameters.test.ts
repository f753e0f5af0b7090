import { describe, expect, it } from "vitest";
import {
  isTrackingParameter,
  onlyTrackingParameters,
  TRACKING_PARAMETERS,
} from "~/tracking-parameters.server";

describe("isTrackingParameter", () => {
  it("knows every parameter the ad, mail and social platforms append", () => {
    for (const name of [
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_term",
      "utm_content",
      "utm_id",
      "gclid",
      "gbraid",
      "wbraid",
      "dclid",
      "fbclid",
      "msclkid",
      "ttclid",
      "twclid",
      "li_fat_id",
      "mc_cid",
      "mc_eid",
      "_ga",
      "_gl",
      "igshid",
      "ref",
    ]) {
      expect(isTrackingParameter(name), name).toBe(true);
    }
    expect(TRACKING_PARAMETERS).toHaveLength(15);
  });

  it.each(["enquiry", "utm_", "utm", "UTM_SOURCE", "gclid2", "referrer", "page", ""])(
    "does not know %j",
    (name) => {
      expect(isTrackingParameter(name)).toBe(false);
    },
  );
});

describe("onlyTrackingParameters", () => {
  it.each([
    ["", true],
    ["?", true],
    ["?utm_source=newsletter&utm_medium=email&utm_campaign=launch", true],
    ["utm_source=newsletter", true],
    ["?gclid=Cj0KCQ&gclid=again", true],
    ["?fbclid", true],
    ["?utm%5Fsource=x", true],
    ["?utm_source=x&page=2", false],
    ["?enquiry=token", false],
    ["?=x", false],
    ["?index", false],
  ])("%j: %s", (search, expected) => {
    expect(onlyTrackingParameters(search)).toBe(expected);
  });
});
