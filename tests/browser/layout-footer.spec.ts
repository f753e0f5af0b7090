import { formatAddress, site } from "~/content/site";
import { holdClientBundle } from "../support/client-bundle";
import { fixture } from "../support/fixture-content";
import { expect, test } from "../support/fixtures";
import { isHydratedAndRendered } from "../support/page-clock";

// What the footer says, from the content the tests' build is made of (tests/fixtures/content).
const words = fixture("footer");
const contact = fixture("contact");

test.describe("scroll-to-top", () => {
  test("appears once scrolled and scrolls smoothly back to the top", async ({ page }) => {
    await page.goto("/");
    const button = page.getByRole("link", { name: "Back to top" });
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 1));
    await expect(button).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    // Every position the page scrolls through on its way up, from its scroll events.
    const start = await page.evaluate(() => {
      const positions: number[] = [];
      Object.assign(window, { __scrollPositions: positions });
      window.addEventListener("scroll", () => positions.push(window.scrollY));
      return window.scrollY;
    });
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    // Smooth: part-way up before the top.
    const positions = await page.evaluate(
      () => (window as unknown as { __scrollPositions: number[] }).__scrollPositions,
    );
    expect(positions.some((y) => y > 0 && y < start)).toBe(true);
    await expect(button).toBeHidden();
  });

  test("jumps instantly under reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole("link", { name: "Back to top" }).click();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  // On a slow phone a visitor reads and scrolls before the page hydrates, then taps the link.
  // The tap's first event makes React hydrate the footer at once; had the hydrated link hidden
  // itself until the browser said where the page is, the rest of the tap (the click) would land
  // on the footer beneath it (at once under reduced motion, where nothing fades). The test taps
  // as that first event does, in the page, the moment the router exists (before that the page
  // keeps such events from React), while the footer is not hydrated yet.
  test("scrolled before the page hydrates, a tap that makes it hydrate leaves the link shown under the finger", async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.addInitScript(() => {
      const report = (value: string[]) => Object.assign(window, { __linkAfterTap: value });
      const tap = () => {
        const link = document.querySelector<HTMLElement>("footer a[href='#top']");
        if (!link || Object.keys(link).some((key) => key.startsWith("__reactFiber$"))) {
          report(["the link was hydrated before the tap"]);
          return;
        }
        const seen: string[] = [];
        const look = (when: string) =>
          seen.push(`${when}: ${link.checkVisibility({ visibilityProperty: true }) ? "shown" : "hidden"}`);
        link.dispatchEvent(
          new PointerEvent("pointerdown", { bubbles: true, cancelable: true, composed: true }),
        );
        look("at once");
        // After React's synchronous work for the event, then at the next frame.
        setTimeout(() => {
          look("after the event's work");
          requestAnimationFrame(() => {
            look("at the next frame");
            report(seen);
          });
        }, 0);
      };
      let router: unknown;
      Object.defineProperty(window, "__remixRouter", {
        configurable: true,
        get: () => router,
        set: (value) => {
          router = value;
          queueMicrotask(tap);
        },
      });
    });
    const release = await holdClientBundle(page);
    await page.goto("/");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    release();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __linkAfterTap?: string[] }).__linkAfterTap))
      .toEqual(["at once: shown", "after the event's work: shown", "at the next frame: shown"]);
    await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
    await page.getByRole("link", { name: "Back to top" }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("is a plain link to the top", async ({ page }) => {
      await page.goto("/");
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const link = page.getByRole("link", { name: "Back to top" });
      await expect(link).toHaveAttribute("href", "#top");
      await link.click();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    });
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`footer ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("gives the address, e-mail and phone as links", async ({ page }) => {
      await page.goto("/");
      const footer = page.getByRole("contentinfo");
      const address = footer.getByRole("link", { name: formatAddress(contact.address) });
      await expect(address).toHaveAttribute("href", /^https:\/\/www\.google\.com\/maps\//);
      await expect(address).toHaveAttribute("target", "_blank");
      await expect(address).toHaveAttribute("rel", /noopener/);
      await expect(footer.getByRole("link", { name: contact.email })).toHaveAttribute(
        "href",
        `mailto:${contact.email}`,
      );
      await expect(footer.getByRole("link", { name: contact.phone.display })).toHaveAttribute(
        "href",
        `tel:${contact.phone.e164}`,
      );
    });

    test("lists services, talent roles and solutions, each leading to the contact form", async ({ page }) => {
      await page.goto("/terms-conditions");
      const footer = page.getByRole("contentinfo");
      for (const group of words.groups) {
        const nav = footer.getByRole("navigation", { name: group.heading });
        await expect(nav.getByRole("link")).toHaveText([...group.items]);
        for (const link of await nav.getByRole("link").all()) {
          await expect(link).toHaveAttribute("href", "/#contact");
        }
      }
      await footer.getByRole("link", { name: words.groups.at(-1)?.items.at(-1), exact: true }).click();
      await expect(page).toHaveURL(/\/#contact$/);
      await expect(page.locator("#contact")).toBeInViewport();
    });

    test("shows the copyright line with the current year", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("contentinfo")).toContainText(
        `© ${new Date().getFullYear()} ${site.name}. ${words.rights}.`,
      );
    });

    test("links the cookie policy", async ({ page }) => {
      await page.goto("/");
      await page.getByRole("contentinfo").getByRole("link", { name: words.cookies }).click();
      await expect(page).toHaveURL(/\/cookie-policy$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(fixture("cookie-policy").title);
    });
  });
}

const policies = [
  { link: words.terms, path: "/terms-conditions", heading: fixture("terms-conditions").title },
  { link: words.privacy, path: "/privacy-policy", heading: fixture("privacy-policy").title },
] as const;

for (const policy of policies) {
  test(`'${policy.link}' opens a full-width dialog with the policy text, closable by button and Escape`, async ({
    page,
  }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    const link = footer.getByRole("link", { name: policy.link });
    await expect(link).toHaveAttribute("href", policy.path);
    // Hydrated: the link now announces the dialog it opens (before that it is a plain link).
    await expect(link).toHaveAttribute("aria-haspopup", "dialog");
    await link.click();
    const dialog = page.getByRole("dialog", { name: policy.heading });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(dialog.getByRole("heading", { level: 3 }).first()).toBeVisible();
    expect((await dialog.textContent())?.length).toBeGreaterThan(2_000);
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(page.viewportSize()?.width);

    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(link).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(link).toBeFocused();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test(`'${policy.link}' is a link to its page`, async ({ page }) => {
      await page.goto("/");
      await page.getByRole("contentinfo").getByRole("link", { name: policy.link }).click();
      await expect(page).toHaveURL(new RegExp(`${policy.path}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(policy.heading);
    });
  });
}
