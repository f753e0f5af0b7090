/**
 * What `npm run check:content` checks of a page in the browser the tests use: axe's audit, with
 * JavaScript and, for a page that sends the app's bundle, without it too; the home page's byte
 * budgets, measured as tests/browser/budgets.spec.ts measures them; and any problem the page has
 * as it runs (an error, a failed request, a request to another origin).
 */
import type { Browser, Page } from "@playwright/test";
import { axeViolations, revealEverything } from "../../tests/support/axe-audit";
import { against, BUDGET_DEVICE, homeBudgetLines, measureHomePage } from "../../tests/support/byte-budgets";
import { serveWithoutScripts } from "../../tests/support/no-script-page";
import { watchPageProblems } from "../../tests/support/page-problems";
import type { Fault } from "./faults";
import type { PageToAudit } from "./page-kinds";

/** A state a busy machine is given to reach: every wait ends as soon as it holds. */
const WAIT_MS = 60_000;

/** Audits `page` in a new phone-sized context of `browser`, with or without JavaScript. */
export async function auditPage(
  browser: Browser,
  origin: string,
  audited: PageToAudit,
  javaScript: boolean,
): Promise<Fault[]> {
  const faults: Fault[] = [];
  const where = audited.path;
  const how = javaScript ? "with JavaScript" : "without JavaScript";
  const context = await browser.newContext({ ...BUDGET_DEVICE, baseURL: origin });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const notFoundDocument = `HTTP 404 ${origin}${audited.path}`;
    await watchPageProblems(page, origin, (line) => {
      if (!(audited.status === 404 && line === notFoundDocument))
        faults.push({ where, message: `${how}: ${line}` });
    });
    if (javaScript && audited.path === "/") {
      faults.push(...(await homeBudgets(page, where)));
    } else {
      if (!javaScript) await serveWithoutScripts(page);
      const response = await page.goto(audited.path);
      if (response?.status() !== audited.status) {
        faults.push({ where, message: `${how}: answered ${response?.status()}, not ${audited.status}` });
      }
      if (javaScript && audited.sendsBundle) await page.waitForFunction(() => "__remixRouter" in window);
      await page.waitForLoadState("networkidle");
    }
    if (javaScript && audited.sendsBundle) await revealEverything(page);
    for (const violation of await axeViolations(page))
      faults.push({ where, message: `axe ${how}: ${violation}` });
  } catch (error) {
    faults.push({
      where,
      message: `${how}: the page could not be audited: ${(error as Error).message.split("\n")[0]}`,
    });
  } finally {
    await context.close();
  }
  return faults;
}

/** The home page's bytes against each of its budgets (tests/support/byte-budgets.ts). */
async function homeBudgets(page: Page, where: string): Promise<Fault[]> {
  const lines = homeBudgetLines(await measureHomePage(page));
  return lines
    .filter(({ bytes, budget }) => bytes > budget)
    .map(({ name, bytes, budget }) => ({
      where,
      message: `${name} is over its budget: ${against(bytes, budget)} at gzip -9`,
    }));
}
