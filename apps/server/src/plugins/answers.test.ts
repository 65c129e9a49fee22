import type { FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { clusterListItemSchema, macroFamilyGroupSchema, moduleListItemSchema } from '@bo/shared/search';
import { modulesResponseSchema, type WorkingModule } from '@bo/shared/working-area';
import { arrayBytes, JsonText } from '../lib/json-text.js';
import { compiledAnswers } from './answers.js';

/**
 * The answers that skip the per-call zod check (plugins/answers.ts): the compiled serializer writes
 * what zod's serializer wrote, byte for byte, and the tests' check refuses what zod would not have sent.
 */
const route = { method: 'POST', url: '/api/test' };
const compile = (schema: z.ZodType, checkAnswers: boolean) => compiledAnswers({ checkAnswers } as FastifyInstance)({ schema, ...route });
const zodWrite = (schema: z.ZodType) => serializerCompiler({ schema, ...route } as Parameters<typeof serializerCompiler>[0]);

const product = {
  upc: '8050000000017',
  skuId: 17,
  model: 'RB2140 "Wayfarer"\n\u0001é',
  color: '901',
  size: '50',
  materialCode: 'RB2140',
  skuCode: 'RB2140901',
  mustHave: true,
  eligible: false,
  moduleCompositionStatus: 'ADDED',
  previousStatus: null,
  previousVersion: null,
  minValue: 1.5,
  srp: 149.9,
  whsprice: 0.1 + 0.2,
  sellIn: 12,
  sellOut: null,
  outOfStars: 0,
  rankSellIn: 3,
  rankSellOut: null,
  rankOutOfStars: null,
  skuTurn: 1e-7,
  doorIndex: -4,
  pty: 2,
  releaseDate: '2026-01-01',
  insertDate: '2026-01-02',
  gedExpireDate: null,
  flagN: false,
  flagNewAdv: true,
  flagDisco: false,
  globalCatalogue: 'Y',
  polar: false,
  sapStatus: null,
  deleted: false,
  newIn: true,
  imageUrl: '/data/images/8050000000017/1.png',
} as const;

const workingModule: WorkingModule & { notInTheSchema: string } = {
  // Out of the schema's order, and one key the schema does not know: both writers drop it and follow the schema.
  notInTheSchema: 'dropped',
  version: 3,
  moduleName: 'AUR_SUN_001',
  moduleLabel: 'Sun 001',
  moduleDescription: 'Ünïcode \u2028 and "quotes"',
  monthId: 'M03_2027',
  macroFamily: 'SUN',
  brand: 'AUR',
  collection: 'SUN',
  starZones: ['EU', 'NA'],
  status: 'WIP',
  locked: true,
  userLock: 'editor',
  legoMonth: false,
  inOpenMonth: true,
  openMonthIdList: ['M03_2027'],
  productDtoList: [product, { ...product, upc: '8050000000024', sellOut: 7, gedExpireDate: '2027-01-01' }],
  door: 40,
  pty: 4,
  refreshIndex: 50,
  refreshIndexMH: 0,
  refreshIndexEL: 100,
  previousMustHave: 1,
  previousEligible: 0,
  length: 2,
  elLength: 0,
  initialSize: null,
  newModule: false,
  clusters: [{ clusterLabel: 'CL 1', starsCustomer: ['C1', 'C2'] }],
  publicationDate: null,
  rpasErrors: null,
  releaseClosed: false,
  isEdited: false,
  isDescriptionEdited: false,
  newDescription: null,
  specialKind: 'NEWNESS',
};

describe('compiled answers', () => {
  it('write a page of modules byte for byte as zod’s serializer did', () => {
    const data = [workingModule, { ...workingModule, moduleName: 'AUR_SUN_002', productDtoList: [] }];
    const text = compile(modulesResponseSchema, true)(data);
    expect(text).toBe(zodWrite(modulesResponseSchema)(data));
    expect(text).not.toContain('notInTheSchema');
  });

  it('send an answer the database wrote as it is', () => {
    const item = JSON.stringify({ clusterId: 'X' });
    const write = compile(z.array(z.object({ clusterId: z.string() })), false);
    expect(write(new JsonText(`[${item},${item}]`))).toBe(`[${item},${item}]`);
    // Its UTF-8 bytes (a kept search answer) are sent as they are.
    const bytes = arrayBytes([item]);
    expect(write(new JsonText(bytes))).toBe(bytes);
  });

  it('in tests, refuse a written answer zod would not have sent: a wrong type, a missing key, a key too many', () => {
    const schema = z.array(z.object({ a: z.string(), b: z.number().nullable() }));
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const checked = compile(schema, true);
      expect(checked(new JsonText('[{"a":"x","b":null}]'))).toBe('[{"a":"x","b":null}]');
      expect(() => checked(new JsonText('[{"a":"x","b":"1"}]'))).toThrow(/does not match its schema/);
      expect(() => checked(new JsonText('[{"a":"x"}]'))).toThrow(/does not match its schema/);
      expect(() => checked(new JsonText('[{"a":"x","b":1,"c":true}]'))).toThrow(/would not have written/);
      // Production does not look.
      expect(compile(schema, false)(new JsonText('[{"a":"x","c":true}]'))).toBe('[{"a":"x","c":true}]');
    } finally {
      quiet.mockRestore();
    }
  });

  it('compile the list schemas of the home search', () => {
    for (const schema of [z.array(moduleListItemSchema), z.array(macroFamilyGroupSchema), z.array(clusterListItemSchema)]) {
      expect(compile(schema, true)([])).toBe('[]');
    }
  });
});
