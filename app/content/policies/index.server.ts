/**
 * Every policy text, for the routes' loaders on the server: the privacy policy filled in from the
 * server's configuration.
 */
import { privacyFacts } from "~/content/privacy-facts.server";
import { cookiePolicy } from "./cookies";
import { privacyPolicyFor } from "./privacy";
import { termsOfService } from "./terms";
import type { Policy } from "./types";

/** Its retention and privacy contact come from the server's configuration, as the privacy notice's do. */
const privacyPolicy = privacyPolicyFor(privacyFacts);

export type { Policy, PolicyBlock, PolicySection } from "./types";
export { cookiePolicy, privacyPolicy, termsOfService };

/**
 * Every policy text. The `.server` suffix keeps the texts out of the browser bundle (the
 * compiler empties this module there): route loaders import them, components never do.
 */
export const policies: readonly Policy[] = [termsOfService, privacyPolicy, cookiePolicy];
