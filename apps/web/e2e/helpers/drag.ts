import type { Locator, Page } from 'playwright-core';

/** A real pointer drag of a SKU tile: press on it, move in steps (dnd-kit starts after 5 px), release over the target. */
export async function dragTile(page: Page, source: Locator, target: Locator): Promise<void> {
  await source.scrollIntoViewIfNeeded();
  const s = (await source.boundingBox())!;
  const t = (await target.boundingBox())!;
  const x = s.x + s.width / 2;
  const y = s.y + s.height * 0.62;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 8, y + 8, { steps: 4 });
  await page.mouse.move(t.x + t.width / 2, t.y + Math.min(t.height / 2, 60), { steps: 16 });
  await page.waitForTimeout(60);
  await page.mouse.up();
}
