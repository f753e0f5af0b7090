/**
 * The headless rule (ENQUIRY_BLOCK_HEADLESS): whether an enquiry came from a headless or automated
 * browser.
 */
/** User-Agents that say they are headless: HeadlessChrome, PhantomJS, or any other naming itself Headless. */
const HEADLESS_AGENT = /headless|phantomjs/i;

/**
 * Whether an enquiry came from a headless or automated browser (ENQUIRY_BLOCK_HEADLESS): its
 * User-Agent says so, it sent none at all, or its enhanced form reported `navigator.webdriver`.
 * Plain HTTP tools (curl, wget) name themselves and are not browsers: they pass this rule.
 */
export function isHeadless(userAgent: string | null, webdriver: boolean): boolean {
  if (webdriver) return true;
  if (userAgent === null || userAgent.trim() === "") return true;
  return HEADLESS_AGENT.test(userAgent);
}
