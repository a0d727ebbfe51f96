import { Type } from 'typebox';
import { Code, Units } from '../../http/common.schemas.ts';

export const StockRuleInput = Type.Object({
  grouperCode: Code(),
  productInternalCode: Code(),
  available: Type.Boolean(),
  units: Type.Optional(Units()),
});
export const StockBatchBody = Type.Object({ upsert: Type.Array(StockRuleInput, { maxItems: 50_000 }) });
