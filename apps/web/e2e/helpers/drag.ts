import type { Locator, Page } from 'playwright-core';

type Box = { x: number; y: number; width: number; height: number };

/**
 * The element's box once it has stopped moving: a card that was just expanded or collapsed is still
 * in its transition, and a box read mid-way sends the drop where the area no longer is.
 */
async function settledBox(page: Page, target: Locator): Promise<Box> {
  await target.waitFor({ state: 'visible' });
  let last = (await target.boundingBox())!;
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(50);
    const now = (await target.boundingBox())!;
    if (now.x === last.x && now.y === last.y && now.width === last.width && now.height === last.height) return now;
    last = now;
  }
  return last;
}

/** A real pointer drag of a SKU tile: press on it, move in steps (dnd-kit starts after 5 px), release over the target. */
export async function dragTile(page: Page, source: Locator, target: Locator): Promise<void> {
  await source.scrollIntoViewIfNeeded();
  const s = await settledBox(page, source);
  const t = await settledBox(page, target);
  const x = s.x + s.width / 2;
  const y = s.y + s.height * 0.62;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 8, y + 8, { steps: 4 });
  await page.mouse.move(t.x + t.width / 2, t.y + Math.min(t.height / 2, 60), { steps: 16 });
  await page.waitForTimeout(60);
  await page.mouse.up();
}
