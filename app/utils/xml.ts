/** Text made safe inside XML (the sitemap, the feed). */
export const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
