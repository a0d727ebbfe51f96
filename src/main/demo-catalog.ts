// The demo supplier's shop window (development only): a small catalog a newcomer can buy
// from in the store app at once. Loaded through the supplier API itself (the same calls
// an ERP makes), so it exercises and respects every rule an integration would.
// Product images are drawn by the service (src/http/demo-images.routes.ts) and fetched by
// the image worker like any supplier image.

export type SupplierCall = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => Promise<any>;

export const DEMO_STORE = 'TIENDA-DEMO';
export const DEMO_USER = { phone: '+573000000001', email: 'demo@surtido.test', name: 'Rosa (demo)' };
const PRICE_LIST = 'PL-DEMO';
const STOCK = 'BODEGA-DEMO';
const SEGMENT = 'BARRIO-DEMO';

export const DEMO_CATEGORIES = [
  { internalCode: 'BEBIDAS', name: 'Bebidas' },
  { internalCode: 'SNACKS', name: 'Snacks' },
  { internalCode: 'DESPENSA', name: 'Despensa' },
  { internalCode: 'ASEO', name: 'Aseo' },
];
const BRANDS = [
  { internalCode: 'ANDINA', name: 'Andina' },
  { internalCode: 'CRUJI', name: 'Crujientes' },
  { internalCode: 'CAMPO', name: 'Del Campo' },
  { internalCode: 'BRILLO', name: 'Brillo' },
];

// code, name, category, brand, unit price, box size, colour of its picture
type Row = [string, string, string, string, number, number, string];
const ROWS: Row[] = [
  ['COLA-350', 'Gaseosa cola 350 ml', 'BEBIDAS', 'ANDINA', 1800, 24, '#7f1d1d'],
  ['LIMA-350', 'Gaseosa lima 350 ml', 'BEBIDAS', 'ANDINA', 1700, 24, '#65a30d'],
  ['NARANJA-350', 'Gaseosa naranja 350 ml', 'BEBIDAS', 'ANDINA', 1700, 24, '#ea580c'],
  ['COLA-1500', 'Gaseosa cola 1,5 L', 'BEBIDAS', 'ANDINA', 4200, 12, '#991b1b'],
  ['AGUA-600', 'Agua 600 ml', 'BEBIDAS', 'ANDINA', 1200, 24, '#0284c7'],
  ['AGUA-GAS-600', 'Agua con gas 600 ml', 'BEBIDAS', 'ANDINA', 1400, 24, '#0369a1'],
  ['TE-500', 'Té frío limón 500 ml', 'BEBIDAS', 'ANDINA', 2300, 12, '#a16207'],
  ['JUGO-MANGO-1L', 'Jugo de mango 1 L', 'BEBIDAS', 'CAMPO', 4800, 12, '#f59e0b'],
  ['JUGO-MORA-1L', 'Jugo de mora 1 L', 'BEBIDAS', 'CAMPO', 4800, 12, '#6b21a8'],
  ['ENERGIA-250', 'Bebida energética 250 ml', 'BEBIDAS', 'ANDINA', 3500, 24, '#1d4ed8'],
  ['PAPAS-45', 'Papas fritas 45 g', 'SNACKS', 'CRUJI', 2100, 12, '#eab308'],
  ['PAPAS-LIMON-45', 'Papas limón 45 g', 'SNACKS', 'CRUJI', 2100, 12, '#84cc16'],
  ['PLATANITOS-60', 'Platanitos 60 g', 'SNACKS', 'CRUJI', 2300, 12, '#ca8a04'],
  ['MANI-50', 'Maní salado 50 g', 'SNACKS', 'CRUJI', 1600, 24, '#92400e'],
  ['GALLETAS-CHOC', 'Galletas de chocolate', 'SNACKS', 'CAMPO', 2600, 12, '#451a03'],
  ['GALLETAS-SAL', 'Galletas de sal', 'SNACKS', 'CAMPO', 1900, 12, '#d6d3d1'],
  ['CHOCOLATINA', 'Chocolatina 30 g', 'SNACKS', 'CAMPO', 1500, 24, '#78350f'],
  ['ARROZ-1K', 'Arroz 1 kg', 'DESPENSA', 'CAMPO', 4300, 12, '#e5e7eb'],
  ['AZUCAR-1K', 'Azúcar 1 kg', 'DESPENSA', 'CAMPO', 3900, 12, '#f5f5f4'],
  ['ACEITE-1L', 'Aceite vegetal 1 L', 'DESPENSA', 'CAMPO', 9800, 12, '#facc15'],
  ['PASTA-500', 'Pasta spaghetti 500 g', 'DESPENSA', 'CAMPO', 3200, 20, '#fde68a'],
  ['LENTEJA-500', 'Lenteja 500 g', 'DESPENSA', 'CAMPO', 3600, 20, '#a3a3a3'],
  ['CAFE-250', 'Café molido 250 g', 'DESPENSA', 'CAMPO', 8900, 12, '#3f2a1d'],
  ['SAL-1K', 'Sal 1 kg', 'DESPENSA', 'CAMPO', 1800, 25, '#f1f5f9'],
  ['ATUN-170', 'Atún en lata 170 g', 'DESPENSA', 'CAMPO', 5600, 24, '#155e75'],
  ['JABON-BARRA', 'Jabón en barra', 'ASEO', 'BRILLO', 2200, 24, '#db2777'],
  ['DETERGENTE-1K', 'Detergente en polvo 1 kg', 'ASEO', 'BRILLO', 11200, 12, '#2563eb'],
  ['LAVALOZA-500', 'Lavaloza 500 g', 'ASEO', 'BRILLO', 4700, 12, '#16a34a'],
  ['PAPEL-4', 'Papel higiénico x4', 'ASEO', 'BRILLO', 6900, 12, '#f8fafc'],
  ['CLORO-1L', 'Blanqueador 1 L', 'ASEO', 'BRILLO', 3400, 12, '#0891b2'],
];

export function demoImageColour(code: string): string | undefined {
  return ROWS.find((r) => r[0] === code)?.[6];
}

/** A promotion window around today, so the demo works on any day. */
function window(today: Date) {
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  return { start: day(-1), end: day(60) };
}

/**
 * Loads the demo catalog through `call` (the supplier API as the demo supplier) and
 * waits for its batches with `wait`. `imageBase` is where the pictures are drawn; none
 * when absent.
 */
export async function seedDemoCatalog(call: SupplierCall, wait: (batchIds: string[]) => Promise<void>, options: { imageBase?: string; today?: Date } = {}) {
  const batch = async (url: string, body: unknown) => wait((await call('POST', url, body)).batchId);
  await call('POST', '/grouper/stock', { internalCode: STOCK, name: 'Bodega demo' });
  await call('POST', '/grouper/promotion', { internalCode: SEGMENT, name: 'Tiendas de barrio' });
  await batch('/batch/brand', { upsert: BRANDS });
  for (const category of DEMO_CATEGORIES) await call('PUT', '/category', category);
  await batch('/batch/product', {
    upsert: ROWS.map(([internalCode, name, category, brand, , box]) => ({
      internalCode,
      name,
      brandInternalCode: brand,
      categoryInternalCode: category,
      displayProducts: [
        { units: 1, name: 'Unidad' },
        { units: box, name: `Caja x${box}`, default: true },
      ],
      ...(options.imageBase ? { image: `${options.imageBase}/${internalCode}.png` } : {}),
    })),
  });
  await call('POST', '/pricelist', { internalCode: PRICE_LIST, name: 'Lista demo' });
  await batch('/batch/store', {
    upsert: [
      {
        internalCode: DEMO_STORE,
        name: 'Tienda Doña Rosa (demo)',
        legalName: 'Rosa Pérez',
        ownerName: 'Rosa Pérez',
        addresses: [{ street: 'Calle 45 # 13-20', city: 'Bogotá', country: 'CO', default: true }],
        priceListCode: PRICE_LIST,
        stockGrouperCode: STOCK,
        promotionGrouperCodes: [SEGMENT],
        settings: { dropSize: 60_000 },
      },
    ],
  });
  await batch('/batch/pricelist', {
    upsert: {
      products: ROWS.flatMap(([code, , , , price, box]) => [
        { priceListInternalCode: PRICE_LIST, productInternalCode: code, units: 1, price },
        // A box costs a little less per unit than the units alone.
        { priceListInternalCode: PRICE_LIST, productInternalCode: code, units: box, price: Math.round((price * box * 0.92) / 100) * 100 },
      ]),
      stores: [],
    },
  });
  await batch('/batch/grouper/stock', { add: { stores: [{ groupInternalCode: STOCK, storeInternalCode: DEMO_STORE }] } });
  // The mango juice is out of stock in the demo warehouse: the store does not see it.
  await batch('/batch/stock/grouper', { upsert: [{ grouperCode: STOCK, productInternalCode: 'JUGO-MANGO-1L', available: false }] });
  await call('POST', `/store/${DEMO_STORE}/add/user`, { users: [DEMO_USER] });
  const dates = window(options.today ?? new Date());
  await call('PUT', '/promotion/discount/multiple', {
    internalCode: 'DESC-GASEOSAS',
    name: 'Gaseosas por caja',
    title: 'Más cajas de gaseosa, más descuento',
    ...dates,
    enabled: true,
    promotionGrouperCodes: [SEGMENT],
    products: ['COLA-350', 'LIMA-350', 'NARANJA-350'].map((internalCode) => ({ internalCode, boxRatio: 24 })),
    discountTiersData: [
      { min: 2, max: 4, discountPercentage: 5 },
      { min: 5, discountPercentage: 10 },
    ],
  });
  await call('PUT', '/promotion/bonus/crossed', {
    internalCode: 'BONO-PAPAS-AGUA',
    name: 'Agua gratis con papas',
    ...dates,
    enabled: true,
    promotionGrouperCodes: [SEGMENT],
    products: [{ internalCode: 'PAPAS-45' }],
    bonusTierData: { quantityRequired: 12, quantityGiven: 1, units: 1, productInternalCode: 'AGUA-600' },
  });
}
