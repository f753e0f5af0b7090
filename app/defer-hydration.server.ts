import { inertPreloadRel, inertScriptType } from "~/deferred-hydration";

const MODULE_PRELOAD = '<link rel="modulepreload" href="';
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;

/** Makes Remix's module preloads and module script inert until the page has painted (see `~/deferred-hydration`). */
export function deferHydration(html: string): string {
  if (!MODULE_SCRIPT.test(html)) return html;
  return html
    .replaceAll(MODULE_PRELOAD, `<link rel="${inertPreloadRel}" href="`)
    .replace(MODULE_SCRIPT, `<script nonce="$1" type="${inertScriptType}">`);
}
