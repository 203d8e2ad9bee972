import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Frame, type Page } from "@playwright/test";
import { KEEP_SCREENS } from "./helpers";

/**
 * decisions §19 Accessible: a renter page has no axe-core violation of impact serious or critical,
 * at a phone's width (375 px) and a desktop's (1280 px). With E2E_SCREENS=1 each width is also captured into
 * .data/e2e-screens (looked at by hand; Playwright empties test-results on every run). `framed`: the
 * page frames the renter's page (the embedded flow in a partner portal), which axe-core must check too;
 * `exclude`: a part checked elsewhere (a selector), such as a sandboxed frame no script may enter;
 * `widths`: other widths than both (the console's lists and details: a desktop's only).
 */
export const WIDTHS = [375, 1280] as const;

export async function expectAccessible(
  page: Page,
  name: string,
  options: { screenshot?: boolean; framed?: boolean; exclude?: string; widths?: readonly number[] } = {},
) {
  for (const width of options.widths ?? WIDTHS) {
    await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
    // Two frames: the page has laid out and painted at the new width before the check.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if (KEEP_SCREENS && options.screenshot !== false) {
      await page.screenshot({ path: path.join(".data", "e2e-screens", `a11y-${name}-${width}.png`), fullPage: true });
    }
    const results = await analyze(page, name, options.framed === true, options.exclude);
    const blocking = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
    expect(blocking, `${name} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * axe-core over the page, and its frames. @axe-core/playwright gives itself one second to load axe-core
 * into a frame and silently skips the frame when that runs out, which happens on a busy machine:
 * for a framed page the run is repeated until axe-core has checked inside the frame (a node target
 * of more than one selector is one within a frame), and fails if it never does, so an empty list of
 * violations never comes from a frame left unchecked. A page without frames is checked by `axe.run`
 * in the page itself (the builder's legacy mode: the same rules, without the blank page its
 * frame-by-frame mode opens to merge results), and axe-core already loaded in the document (the
 * second width, a client-side navigation) is not loaded again: loading its 550 KB took most of each
 * check's 1.2 s (0.1–0.2 s now, 0.7 s after a full navigation).
 */
async function analyze(page: Page, name: string, framed: boolean, exclude?: string) {
  for (let attempt = 1; ; attempt++) {
    const frameless = page.frames().length === 1;
    const loaded = frameless && (await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object"));
    const builder = new AxeBuilder({ page, ...(loaded ? { axeSource: ";" } : {}) })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .setLegacyMode(frameless);
    const results = await (exclude ? builder.exclude(exclude) : builder).analyze();
    const inFrame = [...results.passes, ...results.violations].some((rule) => rule.nodes.some((node) => node.target.length > 1));
    if (!framed || inFrame) return results;
    expect(attempt, `${name}: axe-core reached into the frame`).toBeLessThan(3);
  }
}

/**
 * The element holding focus, or the control's own box around it (a styled option card), draws a
 * visible indicator (an outline or a box shadow), as WCAG 2.4.7 asks. `page` is the document that
 * holds focus: a frame's own, for the embedded flow.
 */
export async function expectVisibleFocus(page: Page | Frame) {
  const indicator = await page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "nothing focused";
    const drawn = (target: Element | null) => {
      if (!target) return false;
      const style = getComputedStyle(target);
      return (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
    };
    if (drawn(element) || drawn(element.parentElement)) return "visible";
    const style = getComputedStyle(element);
    return `no indicator on ${element.outerHTML.slice(0, 160)} (outline ${style.outlineStyle} ${style.outlineWidth}, focus-visible ${element.matches(":focus-visible")})`;
  });
  expect(indicator).toBe("visible");
}
