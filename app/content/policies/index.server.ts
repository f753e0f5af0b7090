import { cookiePolicy } from "./cookies";
import { privacyPolicy } from "./privacy";
import { termsOfService } from "./terms";
import type { Policy } from "./types";

export type { Policy, PolicyBlock, PolicySection } from "./types";
export { cookiePolicy, privacyPolicy, termsOfService };

/**
 * Every policy text. The `.server` suffix keeps the texts out of the browser bundle (the
 * compiler empties this module there): route loaders import them, components never do.
 */
export const policies: readonly Policy[] = [termsOfService, privacyPolicy, cookiePolicy];
