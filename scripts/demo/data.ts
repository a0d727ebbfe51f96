// What the demo supplier sells: a small drinks-and-snacks distributor with one store.
// The bodies are typed by the SDK (RequestBody<path, method>), so the compiler checks
// them against the contract exactly as it would in an integrator's code.
import type { RequestBody } from 'surtido/client';

export const STOCK_GROUPER = { internalCode: 'W-BOG', name: 'Bodega Bogotá' };
export const PROMOTION_GROUPER = { internalCode: 'SEG-BARRIO', name: 'Tiendas de barrio' };
export const PRICE_LIST = { internalCode: 'PL-GENERAL', name: 'Lista general' };
export const STORE = 'S-001';

export const brands: RequestBody<'/batch/brand', 'post'> = {
  upsert: [
    { internalCode: 'B-ANDINA', name: 'Andina Bebidas' },
    { internalCode: 'B-CRUJI', name: 'Crujientes' },
  ],
};

export const categories = [
  { internalCode: 'C-BEB', name: 'Bebidas' },
  { internalCode: 'C-SNK', name: 'Snacks' },
] satisfies RequestBody<'/category', 'put'>[];

export const subcategory: RequestBody<'/subcategory', 'put'> = { internalCode: 'C-BEB-GAS', name: 'Gaseosas', parentCategoryInternalCode: 'C-BEB' };

const box24 = [{ units: 1, name: 'Unidad' }, { units: 24, name: 'Caja x24', default: true }];
export const products: RequestBody<'/batch/product', 'post'> = {
  upsert: [
    { internalCode: 'GAS-COLA-350', name: 'Cola 350 ml', brandInternalCode: 'B-ANDINA', categoryInternalCode: 'C-BEB-GAS', displayProducts: box24 },
    { internalCode: 'GAS-LIMA-350', name: 'Limonada 350 ml', brandInternalCode: 'B-ANDINA', categoryInternalCode: 'C-BEB-GAS', displayProducts: box24 },
    { internalCode: 'AGUA-600', name: 'Agua 600 ml', brandInternalCode: 'B-ANDINA', categoryInternalCode: 'C-BEB' },
    { internalCode: 'JUGO-NAR-1L', name: 'Jugo de naranja 1 L', brandInternalCode: 'B-ANDINA', categoryInternalCode: 'C-BEB' },
    { internalCode: 'SNK-PAPAS-45', name: 'Papas fritas 45 g', brandInternalCode: 'B-CRUJI', categoryInternalCode: 'C-SNK', displayProducts: [{ units: 1, name: 'Unidad' }, { units: 12, name: 'Display x12', default: true }] },
  ],
};

/** The Bogotá warehouse has no orange juice right now: stores it serves do not see it. */
export const availability: RequestBody<'/batch/stock/grouper', 'post'> = {
  upsert: [{ grouperCode: STOCK_GROUPER.internalCode, productInternalCode: 'JUGO-NAR-1L', available: false }],
};

export const stores: RequestBody<'/batch/store', 'post'> = {
  upsert: [
    {
      internalCode: STORE,
      name: 'Tienda Doña Rosa',
      legalName: 'Rosa Pérez',
      ownerName: 'Rosa Pérez',
      addresses: [{ street: 'Calle 45 # 13-20', city: 'Bogotá', country: 'CO', default: true }],
      priceListCode: PRICE_LIST.internalCode,
      stockGrouperCode: STOCK_GROUPER.internalCode,
      promotionGrouperCodes: [PROMOTION_GROUPER.internalCode],
      // This store's minimum order; absent, the supplier's global minimum would apply.
      settings: { dropSize: 150_000 },
    },
  ],
};

/** Prices per package size: a product may cost differently by the unit and by the box. */
const priceTable: [product: string, units: number, price: number][] = [
  ['GAS-COLA-350', 1, 1800],
  ['GAS-COLA-350', 24, 39_600],
  ['GAS-LIMA-350', 1, 1700],
  ['GAS-LIMA-350', 24, 37_200],
  ['AGUA-600', 1, 1200],
  ['JUGO-NAR-1L', 1, 5200],
  ['SNK-PAPAS-45', 1, 2100],
  ['SNK-PAPAS-45', 12, 23_400],
];
export const prices: RequestBody<'/batch/pricelist', 'post'> = {
  // Only prices here (the store already names its list): `stores` stays empty.
  upsert: {
    products: priceTable.map(([productInternalCode, units, price]) => ({ priceListInternalCode: PRICE_LIST.internalCode, productInternalCode, units, price })),
    stores: [],
  },
};

/** A promotion window around today, so the demo works on any day. */
export function window(today = new Date()) {
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  return { start: day(-1), end: day(30) };
}

/** Sodas by the box: 5 % from 2 boxes, 10 % from 5 (boxRatio 24: a box of 24 counts 1). */
export const sodaDiscount = (dates: { start: string; end: string }): RequestBody<'/promotion/discount/multiple', 'put'> => ({
  internalCode: 'DESC-GASEOSAS',
  name: 'Gaseosas por caja',
  title: 'Más cajas, más descuento',
  ...dates,
  enabled: true,
  promotionGrouperCodes: [PROMOTION_GROUPER.internalCode],
  products: [
    { internalCode: 'GAS-COLA-350', boxRatio: 24 },
    { internalCode: 'GAS-LIMA-350', boxRatio: 24 },
  ],
  discountTiersData: [
    { min: 2, max: 4, discountPercentage: 5 },
    { min: 5, discountPercentage: 10 },
  ],
});

/** A free water for every 12 bags of chips (a crossed bonus: the gift is another product). */
export const chipsBonus = (dates: { start: string; end: string }): RequestBody<'/promotion/bonus/crossed', 'put'> => ({
  internalCode: 'BONO-PAPAS-AGUA',
  name: 'Agua gratis con papas',
  ...dates,
  enabled: true,
  promotionGrouperCodes: [PROMOTION_GROUPER.internalCode],
  products: [{ internalCode: 'SNK-PAPAS-45' }],
  bonusTierData: { quantityRequired: 12, quantityGiven: 1, units: 1, productInternalCode: 'AGUA-600' },
});

/** The store's first cart: 4 boxes of soda (the 5 % tier) and 3 displays of chips. */
export const firstCart = [
  { productInternalCode: 'GAS-COLA-350', units: 24, quantity: 2 },
  { productInternalCode: 'GAS-LIMA-350', units: 24, quantity: 2 },
  { productInternalCode: 'SNK-PAPAS-45', units: 12, quantity: 3 },
];

/** One more box of cola reaches the 10 % tier. */
export const finalCart = [{ productInternalCode: 'GAS-COLA-350', units: 24, quantity: 3 }, ...firstCart.slice(1)];
