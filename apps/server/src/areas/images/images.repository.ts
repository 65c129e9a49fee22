import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { skus } from '../../db/schema.js';

interface SkuForImage {
  upc: string;
  model: string;
  color: string;
  releaseDate: string;
}

/** What a SKU's pictures are drawn from; null for an unknown UPC. Deleted SKUs keep their pictures. */
export async function getSkuForImage(db: Queryable, upc: string): Promise<SkuForImage | null> {
  const rows = await db
    .select({ upc: skus.upc, model: skus.model, color: skus.color, releaseDate: skus.releaseDate })
    .from(skus)
    .where(eq(skus.upc, upc))
    .limit(1);
  return rows[0] ?? null;
}
