import { z } from 'zod';

export const liaSchema = z.object({ liaCode: z.string(), planningChannelId: z.string(), isChecked: z.boolean() });
export const starsZoneSchema = z.object({ starsZone: z.string(), description: z.string() });
export const brandSchema = z.object({ brandCode: z.string(), description: z.string() });
export const ruleSchema = z.object({ ruleCode: z.string(), description: z.string(), permissionType: z.string() });
export const countrySchema = z.object({ countryCode: z.string(), name: z.string(), starsZone: z.string() });
export const collectionSchema = z.object({ collectionCode: z.string(), description: z.string() });
export const planningChannelSchema = z.object({ planningChannelId: z.string(), label: z.string() });
export const templateSchema = z.object({ templateId: z.number().int(), templateLabel: z.string() });
export const templatesQuerySchema = z.object({ templatesType: z.string().min(1).max(50) });

export const monthSchema = z.object({ monthId: z.string(), open: z.boolean() });
export type Month = z.infer<typeof monthSchema>;

export const monthIdSchema = z.string().regex(/^M(0[1-9]|1[0-2])_\d{4}$/, 'Month ids look like M03_2027');

export const checkLegoRequestSchema = z.object({
  monthId: monthIdSchema,
  brandCode: z.string().min(1).max(20),
  collection: z.string().min(1).max(20),
});
export type CheckLegoRequest = z.infer<typeof checkLegoRequestSchema>;

/** Settings the browser needs from the server. */
/** GET /api/config. `frontOfficeUrl` is null when FRONT_OFFICE_URL is not set: the browser then hides the Frontoffice entry. */
export const clientConfigSchema = z.object({ frontOfficeUrl: z.string().nullable() });

export type StarsZone = z.infer<typeof starsZoneSchema>;
export type Brand = z.infer<typeof brandSchema>;
export type Rule = z.infer<typeof ruleSchema>;
export type Country = z.infer<typeof countrySchema>;
export type Template = z.infer<typeof templateSchema>;
