import { Type } from 'typebox';
import { Code, Description, Name, Nullable, PageQuery, SearchQuery, Timestamp, Units, Url } from '../../lib/schemas.ts';
import { ImageDetail, ImageFields } from '../images/images.schemas.ts';

const Weight = () => Type.Number({ minimum: -1_000_000, maximum: 1_000_000, description: 'lower shows first' });

export const BrandInput = Type.Object({
  internalCode: Code(),
  name: Name(),
  weight: Type.Optional(Nullable(Weight())),
  image: Type.Optional(Nullable(Url())),
  enabled: Type.Optional(Type.Boolean()),
});
export const BrandBatchBody = Type.Object(
  { upsert: Type.Array(BrandInput) },
  { description: 'A bare array of brands is accepted as the upsert list.' },
);

export const CategoryInput = Type.Object({
  internalCode: Code(),
  name: Name(),
  weight: Type.Optional(Nullable(Weight())),
  image: Type.Optional(Nullable(Url())),
  enabled: Type.Optional(Type.Boolean()),
});
export const SubcategoryInput = Type.Object({ ...CategoryInput.properties, parentCategoryInternalCode: Code() });

/**
 * A product's case rules, in units (quantity × units over the cart's lines of the
 * product; src/modules/pricing/README.md, "Case rules"). Each is optional: none, no rule.
 */
const caseRules = <T>(field: (description: string) => T) => ({
  minUnits: field('the fewest units of the product an order may hold'),
  maxUnits: field('the most units of the product an order may hold'),
  multiple: field('sold by the case of this many units: an order holds a multiple of it'),
});

const DisplayProduct = Type.Object({ units: Units(), name: Name(), default: Type.Optional(Type.Boolean()) });

export const ProductInput = Type.Object({
  internalCode: Code(),
  name: Name(),
  description: Type.Optional(Nullable(Description())),
  brandInternalCode: Code(),
  categoryInternalCode: Code({ description: 'a category or a subcategory' }),
  image: Type.Optional(Nullable(Url())),
  images: Type.Optional(Type.Array(Url(), { maxItems: 50 })),
  enabled: Type.Optional(Type.Boolean()),
  ean: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  displayProducts: Type.Optional(Type.Array(DisplayProduct, { maxItems: 100 })),
  ...caseRules(
    (description) => Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: `${description}; null clears it` }))),
  ),
});
export const ProductBatchBody = Type.Object({ upsert: Type.Array(ProductInput) });

/** What a brand is, and every category besides its place in the tree. */
const CatalogEntryFields = {
  internalCode: Type.String(),
  name: Type.String(),
  weight: Nullable(Type.Number()),
  image: Nullable(Type.String()),
  ...ImageFields,
  enabled: Type.Boolean(),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
};
export const Brand = Type.Object(CatalogEntryFields);

export const Subcategory = Type.Object({ ...CatalogEntryFields, parentCategoryInternalCode: Type.String() });
/** A level-1 category carries its subcategories; a subcategory names its parent. */
export const Category = Type.Object({
  ...CatalogEntryFields,
  parentCategoryInternalCode: Nullable(Type.String()),
  subcategories: Type.Optional(Type.Array(Subcategory)),
});

export const CategoryListQuery = Type.Object({ enabled: Type.Optional(Type.Boolean()), ...PageQuery });
export const ProductListQuery = Type.Object({
  ...SearchQuery,
  enabled: Type.Optional(Type.Boolean()),
  brand: Type.Optional(Code({ description: 'a brand internalCode' })),
  category: Type.Optional(Code({ description: 'a category internalCode: its products and those of its subcategories' })),
  ...PageQuery,
});

export const Product = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  brandInternalCode: Type.String(),
  categoryInternalCode: Type.String(),
  image: Nullable(Type.String()),
  ...ImageFields,
  images: Type.Array(Type.String()),
  imagesDetail: Type.Array(ImageDetail, { description: 'the processing of each of `images`, in the same order' }),
  enabled: Type.Boolean(),
  ean: Nullable(Type.String()),
  displayProducts: Type.Array(Type.Object({ units: Type.Integer(), name: Type.String(), default: Type.Optional(Type.Boolean()) })),
  // Present only when set, so a product without case rules answers as before.
  ...caseRules((description) => Type.Optional(Type.Integer({ description: `${description} (left out: no rule)` }))),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
