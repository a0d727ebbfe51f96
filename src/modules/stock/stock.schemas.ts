import { Type } from 'typebox';
import { Code, Nullable, Page, PageQuery, Timestamp, Units } from '../../lib/schemas.ts';

export const StockRuleInput = Type.Object({
  grouperCode: Code(),
  productInternalCode: Code(),
  available: Type.Boolean(),
  units: Type.Optional(Units()),
});
export const StockBatchBody = Type.Object({ upsert: Type.Array(StockRuleInput) });

export const StockRuleQuery = Type.Object({
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "part of the product's code or name, case-insensitive" })),
  available: Type.Optional(Type.Boolean()),
  ...PageQuery,
});
export const StockRulePage = Page(
  Type.Object({
    productInternalCode: Type.String(),
    productName: Type.String(),
    units: Nullable(Type.Integer({ description: 'the package size the rule is for; null: every size without a rule of its own' })),
    available: Type.Boolean(),
    updatedAt: Timestamp(),
  }),
);
