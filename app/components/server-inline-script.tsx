/** An inline script whose text only the server renders, so it never ships in the JavaScript bundle. */
import { useNonce } from "~/nonce";

interface ServerInlineScriptProps {
  /**
   * Returns the script's text. Pass a function from a `*.server.ts` module: in the browser it
   * is undefined, so the text (which ran, or was read, when the page was parsed) never ships
   * in the JavaScript bundle; the element keeps what the server sent.
   */
  render: (() => string) | undefined;
  type?: string;
}

export function ServerInlineScript({ render, type }: ServerInlineScriptProps) {
  const nonce = useNonce();
  return (
    <script
      type={type}
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the text is our own, from a server-only module, never a visitor's input
      dangerouslySetInnerHTML={{ __html: render?.() ?? "" }}
    />
  );
}
