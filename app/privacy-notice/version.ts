/** The privacy notice's current version, the latest in published.json: written by `npm run notice:publish`. */
export const PRIVACY_NOTICE_VERSION = "2026-12-07";
