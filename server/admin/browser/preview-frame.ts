/**
 * /admin's preview template: it posts the entry being edited to the site's server
 * (/admin/preview/<collection>, server/admin/preview.ts), which renders it with the pages' own
 * components, and shows the document it answers in a frame filling Decap's preview pane. Images
 * the build has not made yet (`preview:images/…`) are shown from the editor's own copy.
 */
import { type DecapElement, decap, type PreviewProps } from "./decap";

/** How the page reaches the preview endpoint: from its `<meta>` tags (server/admin/index.ts). */
export interface PreviewEndpoint {
  /** `/admin/preview`. */
  url: string;
  /** The local editor's run token, or undefined when the editor signs in with GitHub. */
  token: string | undefined;
}

/** Waits this long after the last keystroke before asking for a new preview. */
const QUIET_MS = 250;
const PENDING_IMAGE = "preview:";

const words = {
  frameTitle: "Preview of the page",
  unavailable: "The preview is not available",
  noAnswer: "The site did not answer. Is it still running?",
};

/** The GitHub token Decap keeps for the signed-in editor, sent so the server can ask GitHub whether it may edit. */
function githubToken(): string | undefined {
  try {
    const user = JSON.parse(localStorage.getItem("decap-cms-user") ?? "null") as { token?: unknown } | null;
    return typeof user?.token === "string" ? user.token : undefined;
  } catch {
    return undefined;
  }
}

/** A plain document saying why there is no preview, in the frame's place. */
function messageDocument(message: string): string {
  const text = message.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${words.unavailable}</title></head><body><p>${words.unavailable}: ${text}</p></body></html>`;
}

interface FrameState {
  frame: HTMLIFrameElement | null;
  /** Whether the frame is loading a document given it: until it has, nothing is changed in place. */
  loading: boolean;
  /** The server's last document, before its pending images are resolved. */
  answer: string | undefined;
  /** The head and the whole of the document the frame shows now. */
  shownHead: string | undefined;
  shown: string | undefined;
  /** The document last given to the frame to load, which it shows once loaded. */
  given: { head: string; whole: string } | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  request: AbortController | undefined;
  ask(): void;
  later(delay: number): void;
  show(): void;
  attach(element: HTMLIFrameElement | null): void;
}

export function previewTemplate(collection: string, endpoint: PreviewEndpoint): unknown {
  return decap.createClass<PreviewProps, FrameState>({
    frame: null,
    loading: false,
    answer: undefined,
    shownHead: undefined,
    shown: undefined,
    given: undefined,
    timer: undefined,
    request: undefined,

    componentDidMount() {
      this.later(0);
    },
    componentDidUpdate(previous) {
      // A new entry (a keystroke) asks the server again; otherwise an image may have arrived.
      if (previous.entry !== this.props.entry) this.later(QUIET_MS);
      else this.show();
    },
    componentWillUnmount() {
      clearTimeout(this.timer);
      this.request?.abort();
    },

    later(delay) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.ask(), delay);
    },

    ask() {
      this.request?.abort();
      const request = new AbortController();
      this.request = request;
      const data = (this.props.entry.get("data") as { toJS(): unknown } | undefined)?.toJS() ?? {};
      const slug = this.props.entry.get("slug");
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      const token = endpoint.token === undefined ? githubToken() : undefined;
      if (token) headers.Authorization = `token ${token}`;
      const query = endpoint.token === undefined ? "" : `?token=${encodeURIComponent(endpoint.token)}`;
      fetch(`${endpoint.url}/${encodeURIComponent(collection)}${query}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ slug: typeof slug === "string" ? slug : "", data }),
        signal: request.signal,
      })
        .then(async (response) => {
          const answer = (await response.json()) as { html?: unknown; error?: unknown };
          this.answer =
            typeof answer.html === "string"
              ? answer.html
              : messageDocument(String(answer.error ?? response.status));
        })
        .catch((error: Error) => {
          if (error.name === "AbortError") return;
          this.answer = messageDocument(words.noAnswer);
        })
        .finally(() => {
          if (this.request === request) this.show();
        });
    },

    show() {
      const frame = this.frame;
      // A document still loading would replace a change made now: its load shows the latest answer.
      if (!frame || this.answer === undefined || this.loading) return;
      const page = new DOMParser().parseFromString(this.answer, "text/html");
      for (const image of page.querySelectorAll<HTMLImageElement>(`img[src^="${PENDING_IMAGE}"]`)) {
        const path = (image.getAttribute("src") ?? "").slice(PENDING_IMAGE.length);
        const copy = this.props.getAsset(path)?.toString() ?? "";
        // Until Decap has the file, the image keeps its box and loads nothing.
        if (copy.startsWith("blob:")) image.setAttribute("src", copy);
        else image.removeAttribute("src");
      }
      const head = page.head.innerHTML;
      const whole = `<!doctype html>${page.documentElement.outerHTML}`;
      if (whole === this.shown) return;
      const current = frame.contentDocument;
      if (current?.body && this.shown !== undefined && head === this.shownHead) {
        // The same stylesheets: the body changes in place, so the reader's place and the fonts stay.
        current.documentElement.className = page.documentElement.className;
        current.documentElement.lang = page.documentElement.lang;
        current.body.replaceWith(current.importNode(page.body, true));
        this.shown = whole;
      } else {
        this.loading = true;
        this.given = { head, whole };
        frame.srcdoc = whole;
      }
    },

    attach(element) {
      if (element && element !== this.frame) {
        element.addEventListener("load", () => {
          this.loading = false;
          if (this.given) {
            this.shownHead = this.given.head;
            this.shown = this.given.whole;
          }
          this.show();
        });
      }
      this.frame = element;
      if (element) this.show();
    },

    render(): DecapElement {
      return decap.h("iframe", {
        ref: this.attach,
        title: words.frameTitle,
        // No script runs in it; the editor's page reads and changes it (same origin), and a link
        // followed opens the site in a tab of its own.
        sandbox: "allow-same-origin allow-popups allow-popups-to-escape-sandbox",
        style: { position: "fixed", inset: 0, width: "100%", height: "100%", border: 0, background: "#fff" },
      });
    },
  });
}
