import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe-core's browser bundle, read once (npm axe-core, pinned in apps/web/package.json). */
let source: string | null = null;
const axeSource = () => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/** The WCAG 2.1 A and AA rules (what the product promises), as axe tags them. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The one finding not ours to fix: Mantine's Menu puts an empty focus sentinel (`<div role="presentation"
 * tabindex="-1" data-autofocus>`) first in every `role="menu"` dropdown, which axe counts as a child that is
 * not a menu item. It has no content and screen readers skip it; the menu's items are all menuitems
 * (docs/web-app.md "Accessibility").
 */
const MANTINE_MENU = /^<div[^>]*data-menu-dropdown="true"|^<div class="[^"]*mantine-Menu-dropdown/;

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  /** CSS selectors of the first offending elements, and their HTML, to find the component. */
  nodes: { target: string; html: string }[];
}

/**
 * Runs axe-core on the page as it is now (every open popup, drawer and dialog included) and answers its
 * critical and serious violations of WCAG 2.1 A/AA. Moderate and minor ones are not answered.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy (script-src 'self') refuses
  // an inline script tag, and the product's policy stays as it ships.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const found = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; html: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.map(String).join(' '), html: n.html.slice(0, 200) })),
    }));
  }, TAGS);
  return found
    .map((f) => (f.rule === 'aria-required-children' ? { ...f, nodes: f.nodes.filter((n) => !MANTINE_MENU.test(n.html)) } : f))
    .filter((f) => f.nodes.length > 0 && (f.impact === 'critical' || f.impact === 'serious'));
}

/** One line per finding, for a failing assertion's message. */
export const describeFindings = (where: string, findings: readonly AxeFinding[]) =>
  findings.map((f) => `${where}: [${f.impact}] ${f.rule} — ${f.help}\n${f.nodes.map((n) => `    ${n.target}  ${n.html}`).join('\n')}`).join('\n');

/** Fails the test on any critical or serious finding of axe on the page as it is now (its open popups included). */
export async function expectNoAxeFindings(page: Page, where: string): Promise<void> {
  const findings = await axeViolations(page);
  expect(findings, describeFindings(where, findings)).toEqual([]);
}
